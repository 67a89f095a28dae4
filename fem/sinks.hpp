#pragma once
/// Where elements write: residual rows and Jacobian blocks, addressed by block handles only.
/// The tableau implements these on PETSc (assembly/petsc_sinks), tests on dense Eigen
/// (fem/dense_sinks.hpp). Fixed components are skipped by the implementation.
#include "fem/types.hpp"

namespace catena::fem {

class ResidualSink {
 public:
  virtual ~ResidualSink() = default;
  /// Adds `values` (one per component of `block`) to the block's residual rows.
  virtual void add(BlockId block, const double* values, int n) = 0;
  template <int N>
  void add(BlockId block, const Eigen::Matrix<double, N, 1>& v) { add(block, v.data(), N); }
};

class JacobianSink {
 public:
  virtual ~JacobianSink() = default;
  /// Adds a dense block (column-major, rows of `row`, columns of `col`).
  virtual void add(BlockId row, BlockId col, const double* values, int n_rows, int n_cols) = 0;
  template <int R, int C>
  void add(BlockId row, BlockId col, const Eigen::Matrix<double, R, C>& m) {
    add(row, col, m.data(), R, C);
  }
  /// False when the blocks are dropped anyway: an element whose Jacobian costs more than its
  /// residual (automatic differentiation) may then skip computing it.
  [[nodiscard]] virtual bool wanted() const { return true; }
};

/// Sinks that drop everything: used when only the residual or only the Jacobian is wanted.
class NullResidualSink final : public ResidualSink {
 public:
  void add(BlockId, const double*, int) override {}
};
class NullJacobianSink final : public JacobianSink {
 public:
  void add(BlockId, BlockId, const double*, int, int) override {}
  [[nodiscard]] bool wanted() const override { return false; }
};

}  // namespace catena::fem
