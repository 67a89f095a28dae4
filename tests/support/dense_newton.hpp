#pragma once
// Small dense time stepping without PETSc, for element tests with frame nodes: the residual and
// Jacobian of every element of a model through dense sinks, a plain Newton over one time element,
// the commit the time integrator performs, energy sums, and a row-wise tangent check.
#include "fem/step_rotation.hpp"
#include "support/tangent_check.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <stdexcept>
#include <string>
#include <vector>

namespace catena::testing {

/// Residual and Jacobian of all elements of the model at the trial state.
struct ModelStamp {
  Eigen::VectorXd r;
  Eigen::MatrixXd J;
};

inline ModelStamp stamp_model(const fem::Model& m, const TrialState& s) {
  const int n = static_cast<int>(s.trial.size());
  fem::DenseResidual r(s.map, n);
  fem::DenseJacobian j(s.map, n);
  const fem::StepState v = s.view(m);
  for (const auto& e : m.elements) e->stamp(v, r, j);
  return {r.r, j.J};
}

/// Writes a 3-vector into the trial values of a block (fixed components are skipped).
inline void set_block(TrialState& s, fem::BlockId b, const fem::Vec3& v) {
  const auto dofs = s.map.dofs(b);
  for (int i = 0; i < 3; ++i)
    if (dofs[i] != fem::fixed_dof) s.trial[static_cast<std::size_t>(dofs[i])] = v[i];
}

/// The time integrator's predictor: Δx = h v_n, b = h ω_n (zero in statics), and the elements'
/// own unknowns from Element::predict.
inline void predict(const fem::Model& m, TrialState& s) {
  std::fill(s.trial.begin(), s.trial.end(), 0.0);
  if (s.scheme != fem::TimeScheme::Static) {
    for (std::size_t k = 0; k < m.nodes.size(); ++k) {
      set_block(s, m.nodes[k].displacement, s.h * s.committed[k].velocity);
      if (m.nodes[k].rotation.valid()) set_block(s, m.nodes[k].rotation, s.h * s.committed[k].angular_velocity);
    }
  }
  struct Sink final : fem::PredictionSink {
    TrialState* s = nullptr;
    void set(fem::BlockId block, const double* values, int n) override {
      const auto dofs = s->map.dofs(block);
      for (int c = 0; c < n; ++c)
        if (dofs[c] != fem::fixed_dof) s->trial[static_cast<std::size_t>(dofs[c])] = values[c];
    }
  } sink;
  sink.s = &s;
  const fem::StepState v = s.view(m);
  for (const auto& e : m.elements) e->predict(v, sink);
}

struct NewtonResult {
  int iterations = 0;
  double last_correction = 0.0;  ///< max |δu| of the last iteration
};

/// Newton on the trial unknowns until the largest correction is below `tol` (absolute); throws
/// when it does not get there within `max_iterations`.
inline NewtonResult newton(const fem::Model& m, TrialState& s, double tol = 1e-13, int max_iterations = 30) {
  NewtonResult out;
  for (int it = 1; it <= max_iterations; ++it) {
    const ModelStamp st = stamp_model(m, s);
    const Eigen::VectorXd du = st.J.partialPivLu().solve(-st.r);
    for (std::size_t i = 0; i < s.trial.size(); ++i) s.trial[i] += du[static_cast<Eigen::Index>(i)];
    out.iterations = it;
    out.last_correction = du.cwiseAbs().maxCoeff();
    if (!(out.last_correction == out.last_correction)) throw std::runtime_error("Newton: NaN");
    if (out.last_correction < tol) return out;
  }
  throw std::runtime_error("Newton did not converge, last correction " + std::to_string(out.last_correction));
}

/// The node states at the end of the step, as the time integrator commits them (fem::advance).
inline std::vector<fem::NodeState> end_states(const fem::Model& m, const TrialState& s) {
  const fem::StepState v = s.view(m);
  std::vector<fem::NodeState> out = s.committed;
  const bool is_static = s.scheme == fem::TimeScheme::Static;
  for (std::size_t k = 0; k < m.nodes.size(); ++k) {
    const fem::NodeId id{static_cast<std::int32_t>(k)};
    fem::NodeState& st = out[k];
    const fem::Vec3 dx = v.increment(id);
    if (!m.nodes[k].rotation.valid()) {
      fem::advance(st, dx, nullptr, s.h, !is_static);
      continue;
    }
    const fem::Vec3 b = v.rotation_increment(id);
    fem::advance(st, dx, &b, s.h, !is_static);
  }
  return out;
}

/// Commits the converged step (elements' history, then node states) and moves to the next time
/// element, in the time integrator's order.
inline void commit(const fem::Model& m, TrialState& s) {
  const fem::StepState v = s.view(m);
  for (const auto& el : m.elements) el->commit(v);
  s.committed = end_states(m, s);
  s.t_n += s.h;
}

inline fem::StateEnergy model_energy(const fem::Model& m, const std::vector<fem::NodeState>& states) {
  fem::StateEnergy e;
  for (const auto& el : m.elements) el->add_energy(states, m.gravity, e);
  return e;
}

inline fem::StepWork model_step_work(const fem::Model& m, const TrialState& s) {
  fem::StepWork w;
  const fem::StepState v = s.view(m);
  for (const auto& el : m.elements) el->add_step_work(v, w);
  return w;
}

/// A measured number for RecordProperty ("1.23e-11").
inline std::string sci(double x) {
  std::ostringstream o;
  o << std::scientific << std::setprecision(2) << x;
  return o.str();
}

inline fem::Quaternion quat(const fem::Mat3& R) { return fem::Quaternion(R).normalized(); }

}  // namespace catena::testing
