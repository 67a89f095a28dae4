// GoogleTest main for tests that use PETSc: one PETSc/MPI session around all tests.
#include "assembly/petsc_session.hpp"

#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const catena::assembly::PetscSession petsc(argc, argv);
  return RUN_ALL_TESTS();
}
