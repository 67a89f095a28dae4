#pragma once
/// Dense Eigen implementations of the sinks: element tests and small checks run without PETSc.
#include "fem/sinks.hpp"
#include "fem/unknowns.hpp"

#include <Eigen/Dense>

namespace catena::fem {

class DenseResidual final : public ResidualSink {
 public:
  DenseResidual(const DofMap& map, int n) : map_(&map), r(Eigen::VectorXd::Zero(n)) {}
  void add(BlockId b, const double* v, int n) override {
    const auto dofs = map_->dofs(b);
    for (int i = 0; i < n; ++i)
      if (dofs[i] != fixed_dof) r[dofs[i]] += v[i];
  }
  const DofMap* map_;
  Eigen::VectorXd r;
};

class DenseJacobian final : public JacobianSink {
 public:
  DenseJacobian(const DofMap& map, int n) : map_(&map), J(Eigen::MatrixXd::Zero(n, n)) {}
  void add(BlockId row, BlockId col, const double* v, int nr, int nc) override {
    const auto rd = map_->dofs(row);
    const auto cd = map_->dofs(col);
    for (int c = 0; c < nc; ++c)
      for (int r = 0; r < nr; ++r)
        if (rd[r] != fixed_dof && cd[c] != fixed_dof) J(rd[r], cd[c]) += v[r + nr * c];
  }
  const DofMap* map_;
  Eigen::MatrixXd J;
};

}  // namespace catena::fem
