#pragma once
// Element-level checks without PETSc: residual and Jacobian through dense sinks, and the
// comparison of the analytic tangent with central differences of the residual.
#include "fem/dense_sinks.hpp"
#include "fem/element.hpp"
#include "fem/model.hpp"

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace catena::testing {

/// A model's trial state: committed node states plus a trial vector in sequential numbering.
struct TrialState {
  fem::DofMap map;
  std::vector<double> trial;
  std::vector<fem::NodeState> committed;
  double t_n = 0.0, h = 0.1;
  /// `Static`: a load increment (fem::StepPhase::LoadIncrement) over [t_n, t_n + h].
  fem::TimeScheme scheme = fem::TimeScheme::Midpoint;
  double load_factor = 1.0;  ///< static stamping only (fem::TimeElement::load_factor)
  bool precise = false;      ///< fem::StepState::precise

  explicit TrialState(const fem::Model& m)
      : map(m.registry.sequential_numbering()),
        trial(static_cast<std::size_t>(m.registry.n_free_dofs()), 0.0),
        committed(m.initial_state) {}
  [[nodiscard]] fem::StepState view(const fem::Model& m) const {
    const fem::StepPhase phase =
        scheme == fem::TimeScheme::Static ? fem::StepPhase::LoadIncrement : fem::StepPhase::Dynamic;
    fem::StepState s{{t_n, h, scheme, phase, load_factor}, m.nodes, committed, trial, &map, precise};
    s.gravity = m.gravity;  // as the integrator describes a step of `m`
    return s;
  }
};

inline Eigen::VectorXd element_residual(const fem::Model& m, const fem::Element& e, const TrialState& s) {
  fem::DenseResidual r(s.map, static_cast<int>(s.trial.size()));
  fem::NullJacobianSink none;
  e.stamp(s.view(m), r, none);
  return r.r;
}

inline Eigen::MatrixXd element_jacobian(const fem::Model& m, const fem::Element& e, const TrialState& s) {
  fem::NullResidualSink none;
  fem::DenseJacobian j(s.map, static_cast<int>(s.trial.size()));
  e.stamp(s.view(m), none, j);
  return j.J;
}

struct TangentCheck {
  double max_relative_error = 0.0;
  std::string worst;  ///< "row node 'b' force x, column of node 'a' force y: analytic .., central difference .."
};

/// The Jacobian by central differences of the residual, step `h` scaled by max(1, |u|).
inline Eigen::MatrixXd central_differences(const fem::Model& m, const fem::Element& e, TrialState s, double h) {
  Eigen::MatrixXd fd;
  for (std::size_t c = 0; c < s.trial.size(); ++c) {
    const double u = s.trial[c];
    const double step = h * std::max(1.0, std::abs(u));
    s.trial[c] = u + step;
    const Eigen::VectorXd rp = element_residual(m, e, s);
    s.trial[c] = u - step;
    const Eigen::VectorXd rm = element_residual(m, e, s);
    s.trial[c] = u;
    if (fd.size() == 0) fd.resize(rp.size(), static_cast<Eigen::Index>(s.trial.size()));
    fd.col(static_cast<Eigen::Index>(c)) = (rp - rm) / (2 * step);
  }
  return fd;
}

/// The name of every free unknown's row in the numbering `map` ("node 'b' force x"), for messages.
inline std::vector<std::string> row_names(const fem::Model& m, const fem::DofMap& map) {
  std::vector<std::string> names;
  for (std::size_t b = 0; b < map.n_blocks(); ++b) {
    const fem::BlockId id{static_cast<std::int32_t>(b)};
    const auto dofs = map.dofs(id);
    for (std::size_t c = 0; c < dofs.size(); ++c) {
      if (dofs[c] == fem::fixed_dof) continue;
      const auto d = static_cast<std::size_t>(dofs[c]);
      if (names.size() <= d) names.resize(d + 1);
      names[d] = m.registry.block(id).row_name(static_cast<int>(c));
    }
  }
  return names;
}

/// Central differences against the analytic Jacobian. Each entry's error is relative to the
/// largest Jacobian entry of the whole matrix, or, `rowwise`, of its own row (stricter when rows
/// of very different size are mixed, as inertia, stiffness and kinematic rows are).
inline TangentCheck compare_jacobians(const fem::Model& m, const fem::Element& e, const TrialState& s, double h,
                                      bool rowwise) {
  const Eigen::MatrixXd J = element_jacobian(m, e, s);
  const Eigen::MatrixXd fd = central_differences(m, e, s, h);
  const double whole = std::max(J.cwiseAbs().maxCoeff(), 1e-300);
  const std::vector<std::string> names = row_names(m, s.map);
  TangentCheck out;
  for (Eigen::Index r = 0; r < J.rows(); ++r) {
    const double scale = rowwise ? std::max(J.row(r).cwiseAbs().maxCoeff(), 1e-300) : whole;
    for (Eigen::Index c = 0; c < J.cols(); ++c) {
      const double err = std::abs(fd(r, c) - J(r, c)) / scale;
      if (err > out.max_relative_error) {
        out.max_relative_error = err;
        std::ostringstream w;
        // A column is named by the row of the same unknown: "column of node 'a' force y".
        w << "row " << names[static_cast<std::size_t>(r)] << ", column of "
          << names[static_cast<std::size_t>(c)] << ": analytic " << J(r, c) << ", central difference " << fd(r, c)
          << " (scale " << scale << ")";
        out.worst = w.str();
      }
    }
  }
  return out;
}

inline TangentCheck compare_with_central_differences(const fem::Model& m, const fem::Element& e,
                                                     const TrialState& s, double h = 1e-6) {
  return compare_jacobians(m, e, s, h, false);
}
inline TangentCheck compare_rowwise(const fem::Model& m, const fem::Element& e, const TrialState& s,
                                    double h = 1e-6) {
  return compare_jacobians(m, e, s, h, true);
}

/// The given fraction of a step's rotation for its Cayley vector b (angle 2 atan(|b|/2) about
/// b), written independently of fem/step_rotation.hpp.
inline fem::Mat3 cayley_turn(const fem::Vec3& b, double fraction = 1.0) {
  return Eigen::AngleAxisd(fraction * 2.0 * std::atan(0.5 * b.norm()), b.normalized()).toRotationMatrix();
}

/// The rotation by `angle` about `axis` (not necessarily unit).
inline fem::Mat3 rotation(double angle, const fem::Vec3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

inline fem::Mat3 random_rotation(std::mt19937& rng, double max_angle) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  fem::Vec3 axis(u(rng), u(rng), u(rng));
  axis.normalize();
  return Eigen::AngleAxisd(max_angle * std::abs(u(rng)), axis).toRotationMatrix();
}

}  // namespace catena::testing
