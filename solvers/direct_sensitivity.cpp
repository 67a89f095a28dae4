#include "solvers/direct_sensitivity.hpp"

#include "fem/rotation.hpp"
#include "solvers/element_histories.hpp"
#include "solvers/newton.hpp"
#include "solvers/solver_failure.hpp"
#include "solvers/time_integrator.hpp"

#include <algorithm>
#include <stdexcept>

namespace catena::solvers {

using assembly::check;
using assembly::quietly;

namespace {

std::vector<double> history_of(const fem::Element& e) {
  std::vector<double> h;
  e.save_history(h);
  return h;
}

}  // namespace

NodeTangent node_state_difference(const fem::NodeState& m2, const fem::NodeState& m1, const fem::NodeState& p1,
                                  const fem::NodeState& p2, double step) {
  NodeTangent d;
  d.segment<3>(0) = fourth_order_difference(m2.position, m1.position, p1.position, p2.position, step);
  d.segment<3>(3) = fourth_order_difference(m2.velocity, m1.velocity, p1.velocity, p2.velocity, step);
  const fem::Vec3 g1 = fem::rotation_vector(p1.orientation * m1.orientation.conjugate());
  const fem::Vec3 g2 = fem::rotation_vector(p2.orientation * m2.orientation.conjugate());
  d.segment<3>(6) = (8.0 * g1 - g2) / (12.0 * step);
  d.segment<3>(9) =
      fourth_order_difference(m2.angular_velocity, m1.angular_velocity, p1.angular_velocity, p2.angular_velocity, step);
  return d;
}

fem::NodeState moved_node_state(const fem::NodeState& s, const NodeTangent& d, double a) {
  fem::NodeState out = s;
  out.position += a * d.segment<3>(0);
  out.velocity += a * d.segment<3>(3);
  out.orientation = (fem::quaternion_from_rotation_vector(a * d.segment<3>(6)) * s.orientation).normalized();
  out.angular_velocity += a * d.segment<3>(9);
  return out;
}

DirectSensitivity::DirectSensitivity(fem::Model& model, assembly::Tableau& tableau,
                                     std::vector<ParameterModels> parameters)
    : model_(&model), tableau_(&tableau), parameters_(std::move(parameters)) {
  MPI_Comm_rank(tableau.comm(), &rank_);
  for (ParameterModels& p : parameters_) {
    auto& states = states_.emplace_back();
    for (std::size_t k = 0; k < difference_multiples.size(); ++k)
      states[k] = std::make_unique<CommittedState>(*p.models[k], tableau);
    objective_.emplace_back();
    StateTangent& t = tangents_.emplace_back();
    t.nodes.assign(model.nodes.size(), NodeTangent::Zero());
    for (const auto& e : model.elements) t.histories.emplace_back(history_of(*e).size(), 0.0);
  }
  solve_ = pivoting_solve(tableau, "sensitivity_");
}

PivotingSolve pivoting_solve(const assembly::Tableau& tableau, const char* options_prefix) {
  int ranks = 1;
  MPI_Comm_size(tableau.comm(), &ranks);
  PivotingSolve s;
  Mat J = nullptr;
  check(MatDuplicate(tableau.jacobian(), MAT_DO_NOT_COPY_VALUES, &J), "MatDuplicate");
  s.jacobian = assembly::MatHandle(J);
  KSP ksp = nullptr;
  check(KSPCreate(tableau.comm(), &ksp), "KSPCreate");
  s.ksp = assembly::Handle<KSP, KSPDestroy>(ksp);
  configure_direct_solve(s.ksp, solver_package("auto", ranks));
  check(KSPSetOptionsPrefix(s.ksp, options_prefix), "KSPSetOptionsPrefix");
  check(KSPSetFromOptions(s.ksp), "KSPSetFromOptions");
  return s;
}

DirectSensitivity::~DirectSensitivity() = default;

std::vector<std::string> DirectSensitivity::column_names() const {
  std::vector<std::string> names;
  for (const ParameterModels& p : parameters_) {
    for (const fem::Sensor& s : model_->sensors) names.push_back(s.name + ':' + p.name);
    for (const std::string_view c : energy_column_names) names.push_back(std::string(c) + ':' + p.name);
    if (model_->objective) names.push_back("objective:" + p.name);
  }
  return names;
}

double DirectSensitivity::objective_difference(std::size_t j, double t, bool final) const {
  if (!model_->objective || rank_ != 0) return 0.0;
  std::array<double, 4> g{};
  for (std::size_t k = 0; k < 4; ++k) {
    const fem::Model& m = *parameters_[j].models[k];
    const std::span<const fem::NodeState> s = states_[j][k]->states();
    g[k] = final ? objective_final(m, s, t) : objective_integrand(m, s, t);
  }
  return difference(g, parameters_[j].step);
}

std::vector<double> DirectSensitivity::objective_gradient(double t) const {
  std::vector<double> out;
  if (!model_->objective) return out;
  for (std::size_t j = 0; j < parameters_.size(); ++j)
    out.push_back(objective_[j].value + objective_difference(j, t, true));
  return out;
}

void DirectSensitivity::take_tangents() {
  for (std::size_t j = 0; j < parameters_.size(); ++j) {
    const double eps = parameters_[j].step;
    const auto& s = states_[j];
    StateTangent& t = tangents_[j];
    for (std::size_t n = 0; n < t.nodes.size(); ++n)
      t.nodes[n] = node_state_difference(s[0]->states()[n], s[1]->states()[n], s[2]->states()[n], s[3]->states()[n],
                                         eps);
    for (std::size_t e = 0; e < t.histories.size(); ++e) {
      std::array<std::vector<double>, 4> h;
      for (std::size_t k = 0; k < 4; ++k) h[k] = history_of(*parameters_[j].models[k]->elements[e]);
      for (std::size_t i = 0; i < t.histories[e].size(); ++i)
        t.histories[e][i] = difference({h[0][i], h[1][i], h[2][i], h[3][i]}, eps);
    }
    std::array<double, 4> external{}, dissipated{};
    for (std::size_t k = 0; k < 4; ++k) {
      external[k] = s[k]->work().external_work;
      dissipated[k] = s[k]->work().dissipated;
    }
    t.work.external_work = difference(external, eps);
    t.work.dissipated = difference(dissipated, eps);
  }
}

void DirectSensitivity::start() {
  for (std::size_t j = 0; j < parameters_.size(); ++j) {
    for (std::size_t k = 0; k < difference_multiples.size(); ++k) {
      fem::Model& m = *parameters_[j].models[k];
      // A tableau of its own for the start's solves: its Jacobian and factorizations stay apart
      // from the run's. The states and histories it leaves are per node and per element.
      assembly::Tableau tableau(m, tableau_->comm());
      TimeIntegrator integrator(m, tableau);
      const assembly::VecHandle u = tableau.create_vector();
      try {
        integrator.prepare_start(u);
      } catch (const SolverFailure& e) {
        throw SolverFailure("sensitivity: the start of the model read with " + parameters_[j].name + " = " +
                                format_numbers("%.17g", parameters_[j].value +
                                                            difference_multiples[k] * parameters_[j].step) +
                                ": " + e.what(),
                            0.0);
      }
      const std::span<const fem::NodeState> started = integrator.states();
      std::copy(started.begin(), started.end(), states_[j][k]->states().begin());
    }
  }
  take_tangents();
  for (std::size_t j = 0; j < parameters_.size(); ++j) objective_[j] = {0.0, objective_difference(j, 0.0, false)};
}

void DirectSensitivity::perturb(const CommittedState& base) {
  const std::span<const fem::NodeState> states = base.states();
  std::vector<std::vector<double>> histories;
  for (const auto& e : model_->elements) histories.push_back(history_of(*e));
  for (std::size_t j = 0; j < parameters_.size(); ++j) {
    const StateTangent& t = tangents_[j];
    for (std::size_t k = 0; k < difference_multiples.size(); ++k) {
      const double a = difference_multiples[k] * parameters_[j].step;
      CommittedState& c = *states_[j][k];
      const std::span<fem::NodeState> out = c.states();
      for (std::size_t n = 0; n < states.size(); ++n) out[n] = moved_node_state(states[n], t.nodes[n], a);
      fem::StepWork w = base.work();
      w.external_work += a * t.work.external_work;
      w.dissipated += a * t.work.dissipated;
      c.set_work(w);
      std::vector<std::vector<double>> h = histories;
      for (std::size_t e = 0; e < h.size(); ++e)
        for (std::size_t i = 0; i < h[e].size(); ++i) h[e][i] += a * t.histories[e][i];
      restore_element_histories(*parameters_[j].models[k], h);
    }
  }
}

void DirectSensitivity::step(const fem::TimeElement& time, const CommittedState& state, Vec u) {
  perturb(state);
  // ∂R/∂S_n dS_n/dp + ∂R/∂p at the converged u, per parameter.
  std::vector<assembly::VecHandle> rhs;
  std::array<assembly::VecHandle, 4> f;
  for (auto& v : f) v = tableau_->create_vector();
  for (std::size_t j = 0; j < parameters_.size(); ++j) {
    for (std::size_t k = 0; k < 4; ++k)
      tableau_->assemble_residual_of(*parameters_[j].models[k], states_[j][k]->describe(time), u, f[k]);
    assembly::VecHandle r = tableau_->create_vector();
    // (8 (f₁ − f₋₁) − (f₂ − f₋₂)) / 12ε
    check(VecAXPBYPCZ(r, 8.0, -8.0, 0.0, f[2], f[1]), "VecAXPBYPCZ");
    check(VecAXPBYPCZ(r, -1.0, 1.0, 1.0, f[3], f[0]), "VecAXPBYPCZ");
    check(VecScale(r, 1.0 / (12.0 * parameters_[j].step)), "VecScale");
    rhs.push_back(std::move(r));
  }
  // The exact Jacobian at the converged unknowns.
  tableau_->assemble_jacobian(state.describe(time), u, solve_.jacobian);
  check(KSPSetOperators(solve_.ksp, solve_.jacobian, solve_.jacobian), "KSPSetOperators");
  const assembly::VecHandle du = tableau_->create_vector();
  const assembly::VecHandle u_k = tableau_->create_vector();
  for (std::size_t j = 0; j < parameters_.size(); ++j) {
    const PetscErrorCode code = quietly([&] { return KSPSolve(solve_.ksp, rhs[j], du); });
    KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
    if (code == 0) check(KSPGetConvergedReason(solve_.ksp, &reason), "KSPGetConvergedReason");
    if (code != 0 || reason < 0)
      throw SolverFailure(format_numbers("t = %.6g s: sensitivity: the Jacobian at the converged step is singular "
                                         "(its derivative is not defined: a mechanism without stiffness?)",
                                         time.t_n),
                          time.t_n);
    check(VecScale(du, -1.0), "VecScale");
    for (std::size_t k = 0; k < 4; ++k) {
      check(VecWAXPY(u_k, difference_multiples[k] * parameters_[j].step, du, u), "VecWAXPY");
      CommittedState& c = *states_[j][k];
      c.commit(c.describe(time), u_k);
    }
  }
  take_tangents();
  // The same trapezoid as the run's integral (solvers/objective.hpp), of the integrand's derivative.
  for (std::size_t j = 0; j < parameters_.size(); ++j)
    objective_[j].add(time.h, objective_difference(j, time.t_end(), false));
}

std::vector<double> DirectSensitivity::row(double t) const {
  std::vector<double> out;
  const std::size_t n_sensors = model_->sensors.size();
  for (std::size_t j = 0; j < parameters_.size(); ++j) {
    std::array<std::vector<double>, 4> values;
    for (std::size_t k = 0; k < 4; ++k) {
      const fem::Model& m = *parameters_[j].models[k];
      const CommittedState& c = *states_[j][k];
      for (const fem::Sensor& s : m.sensors)
        values[k].push_back(fem::evaluate_sensor(s, m.nodes, c.states(), m.initial_state));
      for (const double v : energy_columns(c.energy(t))) values[k].push_back(v);  // collective
    }
    for (std::size_t i = 0; i < n_sensors + energy_column_names.size(); ++i)
      out.push_back(difference({values[0][i], values[1][i], values[2][i], values[3][i]}, parameters_[j].step));
    if (model_->objective) out.push_back(objective_[j].value + objective_difference(j, t, true));
  }
  return out;
}

std::vector<double> DirectSensitivity::save() const {
  std::vector<double> out;
  for (std::size_t j = 0; j < parameters_.size(); ++j) {
    const StateTangent& t = tangents_[j];
    for (const NodeTangent& d : t.nodes) out.insert(out.end(), d.data(), d.data() + d.size());
    out.push_back(t.work.external_work);
    out.push_back(t.work.dissipated);
    out.push_back(objective_[j].value);
    out.push_back(objective_[j].last_integrand);
    // Under MPI each element's history lives on the ranks that keep it: gathered on rank 0 from
    // the rank that evaluates it, for each model, and differenced there (collective).
    std::array<std::vector<std::vector<double>>, 4> h;
    for (std::size_t k = 0; k < 4; ++k) h[k] = save_element_histories(*parameters_[j].models[k], *tableau_);
    for (std::size_t e = 0; e < t.histories.size(); ++e)
      for (std::size_t i = 0; i < t.histories[e].size(); ++i)
        out.push_back(rank_ == 0 ? difference({h[0][e][i], h[1][e][i], h[2][e][i], h[3][e][i]}, parameters_[j].step)
                                 : 0.0);
  }
  return out;
}

void DirectSensitivity::restore(std::span<const double> saved) {
  std::size_t at = 0;
  const auto take = [&]() {
    if (at >= saved.size()) throw std::invalid_argument("the checkpoint's sensitivities are shorter than this model's");
    return saved[at++];
  };
  for (std::size_t j = 0; j < tangents_.size(); ++j) {
    StateTangent& t = tangents_[j];
    for (NodeTangent& d : t.nodes)
      for (int i = 0; i < d.size(); ++i) d[i] = take();
    t.work.external_work = take();
    t.work.dissipated = take();
    objective_[j].value = take();
    objective_[j].last_integrand = take();
    for (std::vector<double>& h : t.histories)
      for (double& v : h) v = take();
  }
  if (at != saved.size()) throw std::invalid_argument("the checkpoint's sensitivities are longer than this model's");
}

}  // namespace catena::solvers
