#pragma once
/// The fem sinks implemented on PETSc: blocks map to global rows through the tableau's DofMap,
/// fixed components (-1) are skipped by PETSc itself, values are added (ADD_VALUES).
#include "assembly/petsc_handle.hpp"
#include "fem/sinks.hpp"
#include "fem/unknowns.hpp"

#include <type_traits>

namespace catena::assembly {

static_assert(std::is_same_v<PetscInt, fem::Dof>, "PETSc index type must match fem::Dof");

class PetscResidualSink final : public fem::ResidualSink {
 public:
  PetscResidualSink(Vec f, const fem::DofMap& map) : f_(f), map_(&map) {}
  void add(fem::BlockId b, const double* values, int n) override {
    check(VecSetValues(f_, n, map_->dofs(b).data(), values, ADD_VALUES), "VecSetValues");
  }

 private:
  Vec f_;
  const fem::DofMap* map_;
};

/// Expects J with MAT_ROW_ORIENTED false (Eigen blocks are column-major).
class PetscJacobianSink final : public fem::JacobianSink {
 public:
  PetscJacobianSink(Mat J, const fem::DofMap& map) : J_(J), map_(&map) {}
  void add(fem::BlockId row, fem::BlockId col, const double* values, int n_rows, int n_cols) override {
    check(MatSetValues(J_, n_rows, map_->dofs(row).data(), n_cols, map_->dofs(col).data(), values, ADD_VALUES),
          "MatSetValues");
  }

 private:
  Mat J_;
  const fem::DofMap* map_;
};

}  // namespace catena::assembly
