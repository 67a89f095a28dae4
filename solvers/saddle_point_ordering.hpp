#pragma once
/// An elimination order for LU without pivoting on the Newton matrix (PETSc's own LU, one rank).
///
/// The tableau's multiplier rows have zero diagonals: LU without pivoting breaks down on them
/// unless each multiplier is eliminated after the node unknowns it constrains. Then its pivot
/// block is the Schur complement −C A⁻¹ Cᵀ of the node blocks eliminated before it (A: inertia
/// 2m/h², stiffness; C: the joint's constraint gradient), nonsingular for independent constraints
/// (the start-up redundancy check rejects the others) and of the size h²/m that the node rows
/// that follow are scaled back from: no growth. So the node blocks are ordered for fill (PETSc's
/// quotient minimum degree on the graph of blocks, which keeps each block's rows together), and
/// each multiplier block goes right after the last node block it couples to.
///
/// Where a node block itself is singular (a static mechanism) or the order meets a pivot that is
/// small after all, the factorization reports it or Newton fails to converge: Newton then falls
/// back to SuperLU with partial pivoting for the rest of the run (solvers/newton.cpp).
#include "assembly/tableau.hpp"

#include <petscmat.h>

#include <vector>

namespace catena::solvers {

/// The order of the tableau's rows (one rank): position k holds row `order[k]`.
[[nodiscard]] std::vector<PetscInt> saddle_point_order(const assembly::Tableau& tableau);

/// PETSc's name of the ordering that hands PETSc's LU the order attached to its matrix by
/// attach_saddle_point_order (registered with MatOrderingRegister on first use).
[[nodiscard]] const char* saddle_point_ordering_name();

/// Attaches `order` to `matrix`, where the ordering saddle_point_ordering_name() finds it.
void attach_saddle_point_order(Mat matrix, const std::vector<PetscInt>& order);

}  // namespace catena::solvers
