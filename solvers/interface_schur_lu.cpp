#include "solvers/interface_schur_lu.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

namespace catena::solvers {

using assembly::check;

InterfaceSchurLU::InterfaceSchurLU(const assembly::Tableau& tableau, const std::vector<PetscInt>& order)
    : comm_(tableau.comm()), first_(tableau.first_owned()) {
  int ranks = 1;
  MPI_Comm_size(comm_, &ranks);
  const PetscInt owned = tableau.n_owned(), last = first_ + owned;
  const std::span<const PetscInt> offsets = tableau.pattern_offsets(), columns = tableau.pattern_columns();
  const auto row_columns = [&](PetscInt i) {
    return columns.subspan(
        static_cast<std::size_t>(offsets[static_cast<std::size_t>(i)]),
        static_cast<std::size_t>(offsets[static_cast<std::size_t>(i) + 1] - offsets[static_cast<std::size_t>(i)]));
  };
  const auto is_local = [&](PetscInt c) { return c >= first_ && c < last; };
  const auto is_multiplier = [&](PetscInt row) { return tableau.row_kind(row) == fem::UnknownKind::Multiplier; };

  // The cut: rows coupled with another rank's rows; then the multipliers that constrain a node on the cut. In
  // the saddle-point order a multiplier follows all its nodes, and its pivot is the compliance of those nodes
  // as eliminated before it: without one of them it can vanish (a bar held at one end by the joint eliminated
  // before gives no axial compliance at the other end).
  std::vector<char> on_interface(static_cast<std::size_t>(owned), 0);
  for (PetscInt i = 0; i < owned; ++i) {
    const auto cols = row_columns(i);
    on_interface[static_cast<std::size_t>(i)] =
        std::any_of(cols.begin(), cols.end(), [&](PetscInt c) { return !is_local(c); });
  }
  std::vector<char> constrains_cut(static_cast<std::size_t>(owned), 0);
  for (PetscInt i = 0; i < owned; ++i) {
    if (on_interface[static_cast<std::size_t>(i)] || !is_multiplier(first_ + i)) continue;
    const auto cols = row_columns(i);  // all local: the row is not on the cut
    constrains_cut[static_cast<std::size_t>(i)] = std::any_of(cols.begin(), cols.end(), [&](PetscInt c) {
      return !is_multiplier(c) && on_interface[static_cast<std::size_t>(c - first_)];
    });
  }
  for (PetscInt i = 0; i < owned; ++i)
    if (constrains_cut[static_cast<std::size_t>(i)]) on_interface[static_cast<std::size_t>(i)] = 1;
  std::vector<PetscInt> position(static_cast<std::size_t>(owned), -1);  // interior or interface index
  interior_position_.assign(static_cast<std::size_t>(owned), -1);
  for (PetscInt i = 0; i < owned; ++i) {
    std::vector<PetscInt>& list = on_interface[static_cast<std::size_t>(i)] ? interface_ : interior_;
    position[static_cast<std::size_t>(i)] = static_cast<PetscInt>(list.size());
    if (!on_interface[static_cast<std::size_t>(i)])
      interior_position_[static_cast<std::size_t>(i)] = position[static_cast<std::size_t>(i)];
    list.push_back(i);
  }

  // Every rank's interface rows, in rank order (ascending: ranks own ascending ranges).
  const int mine = static_cast<int>(interface_.size());
  interface_counts_.assign(static_cast<std::size_t>(ranks), 0);
  MPI_Allgather(&mine, 1, MPI_INT, interface_counts_.data(), 1, MPI_INT, comm_);
  interface_displacements_.assign(static_cast<std::size_t>(ranks), 0);
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  for (int r = 1; r < ranks; ++r)
    interface_displacements_[static_cast<std::size_t>(r)] =
        interface_displacements_[static_cast<std::size_t>(r) - 1] + interface_counts_[static_cast<std::size_t>(r) - 1];
  n_interface_ = interface_displacements_.back() + interface_counts_.back();
  interface_offset_ = interface_displacements_[static_cast<std::size_t>(rank)];
  std::vector<PetscInt> mine_global(interface_.size()), all_interface(static_cast<std::size_t>(n_interface_));
  std::transform(interface_.begin(), interface_.end(), mine_global.begin(), [&](PetscInt i) { return first_ + i; });
  MPI_Allgatherv(mine_global.data(), mine, MPIU_INT, all_interface.data(), interface_counts_.data(),
                 interface_displacements_.data(), MPIU_INT, comm_);
  const auto interface_position = [&](PetscInt row) {
    return static_cast<PetscInt>(std::lower_bound(all_interface.begin(), all_interface.end(), row) -
                                 all_interface.begin());
  };

  // The rows the Schur complement reads: interior rows touching the interface, interface rows.
  std::vector<PetscInt> w_column_of(interface_.size(), -1);
  for (PetscInt i = 0; i < owned; ++i) {
    const auto cols = row_columns(i);
    BoundaryRow b;
    b.row = first_ + i;
    b.on_interface = on_interface[static_cast<std::size_t>(i)] != 0;
    b.local = position[static_cast<std::size_t>(i)];
    for (const PetscInt c : cols) {
      PetscInt target = -1;
      if (b.on_interface) {  // ≥ 0: a column of S; < 0: −1 − the interior position
        target = !is_local(c) || on_interface[static_cast<std::size_t>(c - first_)]
                     ? interface_position(c)
                     : -1 - position[static_cast<std::size_t>(c - first_)];
      } else if (on_interface[static_cast<std::size_t>(c - first_)]) {  // a column of W
        PetscInt& w = w_column_of[static_cast<std::size_t>(position[static_cast<std::size_t>(c - first_)])];
        if (w < 0) {
          w = n_w_columns_++;
          w_column_position_.push_back(interface_offset_ + position[static_cast<std::size_t>(c - first_)]);
        }
        target = w;
      }
      b.columns.push_back(c);
      b.targets.push_back(target);
    }
    const bool touches =
        b.on_interface || std::any_of(b.targets.begin(), b.targets.end(), [](PetscInt t) { return t >= 0; });
    if (touches) boundary_rows_.push_back(std::move(b));
  }
  // The widest interior coupling, and whether some rank has nothing but the cut (a model so small that MUMPS
  // serves as well).
  PetscInt widest[2] = {n_w_columns_, interior_.empty() ? 1 : 0};
  MPI_Allreduce(MPI_IN_PLACE, widest, 2, MPIU_INT, MPI_MAX, comm_);
  suits_ = widest[0] <= max_columns_per_rank && widest[1] == 0 && n_interface_ <= max_interface;

  // The interior's elimination order: the saddle-point order of all rows, restricted.
  std::vector<PetscInt> interior_order;
  interior_order.reserve(interior_.size());
  for (const PetscInt row : order)
    if (is_local(row) && !on_interface[static_cast<std::size_t>(row - first_)])
      interior_order.push_back(position[static_cast<std::size_t>(row - first_)]);
  const auto n_interior = static_cast<PetscInt>(interior_.size());
  check(ISCreateGeneral(PETSC_COMM_SELF, n_interior, interior_.data(), PETSC_COPY_VALUES, interior_is_.out()),
        "ISCreateGeneral");
  check(ISCreateGeneral(PETSC_COMM_SELF, n_interior, interior_order.data(), PETSC_COPY_VALUES, interior_order_.out()),
        "ISCreateGeneral");
  check(ISSetPermutation(interior_order_), "ISSetPermutation");
  check(VecCreateSeq(PETSC_COMM_SELF, n_interior, interior_rhs_.out()), "VecCreateSeq");
  check(VecCreateSeq(PETSC_COMM_SELF, n_interior, interior_solution_.out()), "VecCreateSeq");
  check(MatCreateSeqDense(PETSC_COMM_SELF, n_interior, n_w_columns_, nullptr, rhs_columns_.out()), "MatCreateSeqDense");
  check(MatCreateSeqDense(PETSC_COMM_SELF, n_interior, n_w_columns_, nullptr, w_.out()), "MatCreateSeqDense");
  local_rhs_.resize(interface_.size());
  interface_rhs_.resize(static_cast<std::size_t>(n_interface_));
}

void InterfaceSchurLU::install(PC pc) {
  check(PCSetType(pc, PCSHELL), "PCSetType");
  check(PCShellSetContext(pc, this), "PCShellSetContext");
  check(PCShellSetSetUp(pc, set_up), "PCShellSetSetUp");
  check(PCShellSetApply(pc, apply), "PCShellSetApply");
  check(PCShellSetName(pc,
                       "LU without pivoting of each rank's interior, Schur "
                       "complement on the cut"),
        "PCShellSetName");
}

PetscErrorCode InterfaceSchurLU::set_up(PC pc) {
  void* context = nullptr;
  Mat J = nullptr;
  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &context));
  PetscCall(PCGetOperators(pc, &J, nullptr));
  bool factored = false;
  try {
    factored = static_cast<InterfaceSchurLU*>(context)->factor(J);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  PetscCheck(factored, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "zero pivot without pivoting");
  PetscFunctionReturn(0);
}

PetscErrorCode InterfaceSchurLU::apply(PC pc, Vec b, Vec x) {
  void* context = nullptr;
  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &context));
  try {
    static_cast<InterfaceSchurLU*>(context)->solve(b, x);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  PetscFunctionReturn(0);
}

bool InterfaceSchurLU::factor_interior(Mat J) {
  if (interior_.empty()) return true;
  Mat diagonal = nullptr, off_diagonal = nullptr;
  const PetscInt* off_columns = nullptr;
  check(MatMPIAIJGetSeqAIJ(J, &diagonal, &off_diagonal, &off_columns), "MatMPIAIJGetSeqAIJ");
  MatFactorInfo info;
  check(MatFactorInfoInitialize(&info), "MatFactorInfoInitialize");
  info.fill = 5.0;  // PETSc's LU preconditioner's defaults
  info.zeropivot = 100 * PETSC_MACHINE_EPSILON;
  if (!interior_matrix_) {
    check(MatCreateSubMatrix(diagonal, interior_is_, interior_is_, MAT_INITIAL_MATRIX, interior_matrix_.out()),
          "MatCreateSubMatrix");
    find_interior_values(diagonal);
    // As on one rank (solvers/newton.cpp): PETSc 3.18's LU on i-nodes fails in this order. The i-nodes were
    // found when the submatrix was assembled: assembled again, it has none.
    check(MatSetOption(interior_matrix_, MAT_USE_INODES, PETSC_FALSE), "MatSetOption");
    check(MatAssemblyBegin(interior_matrix_, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
    check(MatAssemblyEnd(interior_matrix_, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
    check(MatGetFactor(interior_matrix_, MATSOLVERPETSC, MAT_FACTOR_LU, interior_factor_.out()), "MatGetFactor");
    check(MatLUFactorSymbolic(interior_factor_, interior_matrix_, interior_order_, interior_order_, &info),
          "MatLUFactorSymbolic");
  } else if (interior_value_places_.empty()) {
    Mat reused = interior_matrix_.get();
    check(MatCreateSubMatrix(diagonal, interior_is_, interior_is_, MAT_REUSE_MATRIX, &reused), "MatCreateSubMatrix");
  } else {  // MatCreateSubMatrix sorts every row again: 0.1 s a factorization at 1e5 bars
    const PetscScalar* from = nullptr;
    PetscScalar* to = nullptr;
    check(MatSeqAIJGetArrayRead(diagonal, &from), "MatSeqAIJGetArrayRead");
    check(MatSeqAIJGetArray(interior_matrix_, &to), "MatSeqAIJGetArray");
    for (std::size_t k = 0; k < interior_value_places_.size(); ++k) to[k] = from[interior_value_places_[k]];
    check(MatSeqAIJRestoreArray(interior_matrix_, &to), "MatSeqAIJRestoreArray");
    check(MatSeqAIJRestoreArrayRead(diagonal, &from), "MatSeqAIJRestoreArrayRead");
  }
  check(MatLUFactorNumeric(interior_factor_, interior_matrix_, &info), "MatLUFactorNumeric");
  MatFactorError error = MAT_FACTOR_NOERROR;
  check(MatFactorGetError(interior_factor_, &error), "MatFactorGetError");
  return error == MAT_FACTOR_NOERROR;
}

void InterfaceSchurLU::find_interior_values(Mat diagonal) {
  PetscInt n_from = 0, n_to = 0;
  const PetscInt *ia = nullptr, *ja = nullptr, *ib = nullptr, *jb = nullptr;
  PetscBool done_from = PETSC_FALSE, done_to = PETSC_FALSE;
  check(MatGetRowIJ(diagonal, 0, PETSC_FALSE, PETSC_FALSE, &n_from, &ia, &ja, &done_from), "MatGetRowIJ");
  check(MatGetRowIJ(interior_matrix_, 0, PETSC_FALSE, PETSC_FALSE, &n_to, &ib, &jb, &done_to), "MatGetRowIJ");
  bool exact = done_from == PETSC_TRUE && done_to == PETSC_TRUE && n_to == static_cast<PetscInt>(interior_.size());
  interior_value_places_.assign(exact ? static_cast<std::size_t>(ib[n_to]) : 0, 0);
  for (PetscInt i = 0; exact && i < n_to; ++i) {
    PetscInt k = ib[i];
    const PetscInt row = interior_[static_cast<std::size_t>(i)];
    for (PetscInt a = ia[row]; a < ia[row + 1]; ++a) {
      const PetscInt p = interior_position_[static_cast<std::size_t>(ja[a])];
      if (p < 0) continue;
      if (k == ib[i + 1] || jb[k] != p) {
        exact = false;
        break;
      }
      interior_value_places_[static_cast<std::size_t>(k++)] = a;
    }
    exact = exact && k == ib[i + 1];
  }
  check(MatRestoreRowIJ(interior_matrix_, 0, PETSC_FALSE, PETSC_FALSE, &n_to, &ib, &jb, &done_to), "MatRestoreRowIJ");
  check(MatRestoreRowIJ(diagonal, 0, PETSC_FALSE, PETSC_FALSE, &n_from, &ia, &ja, &done_from), "MatRestoreRowIJ");
  if (!exact) interior_value_places_.clear();
}

bool InterfaceSchurLU::factor(Mat J) {
  // Every rank learns whether any interior failed before anyone waits in a gather.
  bool interior_factored = false;
  try {
    interior_factored = factor_interior(J);
  } catch (const assembly::PetscFailure&) {
    interior_factored = false;
  }
  int all_factored = interior_factored ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_factored, 1, MPI_INT, MPI_MIN, comm_);
  if (all_factored == 0) return false;

  const auto n_interior = static_cast<PetscInt>(interior_.size());
  const auto m = static_cast<std::size_t>(n_interface_);
  std::vector<double> schur_rows(interface_.size() * m, 0.0);  // this rank's rows of S, row-major
  interface_to_interior_.clear();
  check(MatZeroEntries(rhs_columns_), "MatZeroEntries");
  {
    PetscScalar* a_pi = nullptr;  // A_pI, column-major, the W columns only
    check(MatDenseGetArray(rhs_columns_, &a_pi), "MatDenseGetArray");
    std::vector<PetscScalar> values;
    for (const BoundaryRow& b : boundary_rows_) {
      values.resize(b.columns.size());
      check(MatGetValues(J, 1, &b.row, static_cast<PetscInt>(b.columns.size()), b.columns.data(), values.data()),
            "MatGetValues");
      for (std::size_t c = 0; c < values.size(); ++c) {
        const PetscInt t = b.targets[c];
        if (!b.on_interface) {
          if (t >= 0) a_pi[t * n_interior + b.local] = values[c];
        } else if (t >= 0) {
          schur_rows[static_cast<std::size_t>(b.local) * m + static_cast<std::size_t>(t)] += values[c];
        } else if (values[c] != 0.0) {
          interface_to_interior_.push_back({b.local, -1 - t, values[c]});
        }
      }
    }
    check(MatDenseRestoreArray(rhs_columns_, &a_pi), "MatDenseRestoreArray");
  }
  if (n_interior > 0 && n_w_columns_ > 0) {
    check(MatMatSolve(interior_factor_, rhs_columns_, w_), "MatMatSolve");
    const PetscScalar* w = nullptr;
    check(MatDenseGetArrayRead(w_, &w), "MatDenseGetArrayRead");
    for (const Entry& e : interface_to_interior_)
      for (PetscInt c = 0; c < n_w_columns_; ++c)
        schur_rows[static_cast<std::size_t>(e.row) * m + static_cast<std::size_t>(w_column_position_[c])] -=
            e.value * w[c * n_interior + e.column];
    check(MatDenseRestoreArrayRead(w_, &w), "MatDenseRestoreArrayRead");
  }

  // S on every rank, from every rank's rows.
  std::vector<int> counts(interface_counts_.size()), displacements(interface_counts_.size());
  for (std::size_t r = 0; r < counts.size(); ++r) {
    counts[r] = interface_counts_[r] * static_cast<int>(m);
    displacements[r] = interface_displacements_[r] * static_cast<int>(m);
  }
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> schur(n_interface_, n_interface_);
  MPI_Allgatherv(schur_rows.data(), static_cast<int>(schur_rows.size()), MPI_DOUBLE, schur.data(), counts.data(),
                 displacements.data(), MPI_DOUBLE, comm_);
  schur_.compute(schur);
  // The same matrix on every rank: every rank reaches the same verdict.
  const auto pivots = schur_.matrixLU().diagonal();
  return pivots.allFinite() && (pivots.size() == 0 || pivots.cwiseAbs().minCoeff() > 0.0);
}

void InterfaceSchurLU::solve(Vec b, Vec x) {
  const auto n_interior = static_cast<PetscInt>(interior_.size());
  const PetscScalar* rhs = nullptr;
  check(VecGetArrayRead(b, &rhs), "VecGetArrayRead");
  const PetscScalar* y = nullptr;
  if (n_interior > 0) {
    PetscScalar* interior_rhs = nullptr;
    check(VecGetArray(interior_rhs_, &interior_rhs), "VecGetArray");
    for (PetscInt i = 0; i < n_interior; ++i) interior_rhs[i] = rhs[interior_[static_cast<std::size_t>(i)]];
    check(VecRestoreArray(interior_rhs_, &interior_rhs), "VecRestoreArray");
    check(MatSolve(interior_factor_, interior_rhs_, interior_solution_), "MatSolve");
    check(VecGetArrayRead(interior_solution_, &y), "VecGetArrayRead");
  }
  for (std::size_t k = 0; k < interface_.size(); ++k) local_rhs_[k] = rhs[interface_[k]];
  check(VecRestoreArrayRead(b, &rhs), "VecRestoreArrayRead");
  for (const Entry& e : interface_to_interior_) local_rhs_[static_cast<std::size_t>(e.row)] -= e.value * y[e.column];
  MPI_Allgatherv(local_rhs_.data(), static_cast<int>(local_rhs_.size()), MPI_DOUBLE, interface_rhs_.data(),
                 interface_counts_.data(), interface_displacements_.data(), MPI_DOUBLE, comm_);
  const Eigen::VectorXd on_cut = schur_.solve(Eigen::Map<const Eigen::VectorXd>(interface_rhs_.data(), n_interface_));

  PetscScalar* solution = nullptr;
  check(VecGetArray(x, &solution), "VecGetArray");
  if (n_interior > 0) {
    std::vector<double> on_w_columns(static_cast<std::size_t>(n_w_columns_));
    for (PetscInt c = 0; c < n_w_columns_; ++c)
      on_w_columns[static_cast<std::size_t>(c)] = on_cut[w_column_position_[static_cast<std::size_t>(c)]];
    const PetscScalar* w = nullptr;
    check(MatDenseGetArrayRead(w_, &w), "MatDenseGetArrayRead");
    for (PetscInt i = 0; i < n_interior; ++i) {
      double value = y[i];
      for (PetscInt c = 0; c < n_w_columns_; ++c)
        value -= w[c * n_interior + i] * on_w_columns[static_cast<std::size_t>(c)];
      solution[interior_[static_cast<std::size_t>(i)]] = value;
    }
    check(MatDenseRestoreArrayRead(w_, &w), "MatDenseRestoreArrayRead");
    check(VecRestoreArrayRead(interior_solution_, &y), "VecRestoreArrayRead");
  }
  for (std::size_t k = 0; k < interface_.size(); ++k)
    solution[interface_[k]] = on_cut[interface_offset_ + static_cast<PetscInt>(k)];
  check(VecRestoreArray(x, &solution), "VecRestoreArray");
}

}  // namespace catena::solvers
