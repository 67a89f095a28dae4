#include "solvers/committed_state.hpp"

#include "fem/step_rotation.hpp"
#include "solvers/integrator_state.hpp"

#include <algorithm>
#include <unordered_map>

namespace catena::solvers {

using assembly::check;

CommittedState::CommittedState(fem::Model& model, assembly::Tableau& tableau)
    : model_(&model), tableau_(&tableau), states_(model.initial_state) {
  MPI_Comm_rank(tableau.comm(), &rank_);
  MPI_Comm_size(tableau.comm(), &ranks_);
  for (const fem::BlockInfo& b : model.registry.blocks())
    has_multipliers_ = has_multipliers_ || b.kind == fem::UnknownKind::Multiplier;
  if (ranks_ > 1) {
    // Committing every element on every rank made a two-rank step of a 1e5-bar chain 15 % slower
    // than committing these (bench/README.md).
    const PetscInt first = tableau.first_owned(), last = first + tableau.n_owned();
    std::vector<char> keep(model.elements.size(), 0);
    for (const std::size_t e : tableau.local_elements()) keep[e] = 1;
    for (std::size_t e = 0; e < model.elements.size() && e < model.element_couplings.size(); ++e) {
      const auto [begin, end] = model.element_couplings[e];
      for (std::size_t c = begin; c < end && !keep[e]; ++c)
        for (const fem::BlockId b : model.registry.couplings()[c])
          for (const fem::Dof d : tableau.global_map().dofs(b))
            if (d >= first && d < last) keep[e] = 1;
    }
    std::unordered_map<const fem::Element*, std::size_t> index;
    for (std::size_t e = 0; e < model.elements.size(); ++e) index.emplace(model.elements[e].get(), e);
    const auto keep_read = [&](const fem::Element* read) {
      if (const auto it = index.find(read); read && it != index.end()) keep[it->second] = 1;
    };
    if (rank_ == 0) {
      for (const fem::Sensor& s : model.sensors) {
        keep_read(s.element);
        for (const fem::WeightedSensor& part : s.parts) keep_read(part.sensor.element);  // a point along a beam
      }
    }
    // An element whose field a law reads (a joint's coordinate): wherever the law may be stamped,
    // its history must be the committed one.
    const fem::LawSensors& law_sensors = *model.law_sensors;
    for (std::size_t i = 0; i < law_sensors.size(); ++i)
      for (const fem::LawSensorTerm& term : law_sensors[i].terms) keep_read(term.element);
    for (std::size_t e = 0; e < keep.size(); ++e)
      if (keep[e]) kept_elements_.push_back(e);
  }
}

fem::TimeElement CommittedState::time_element(double t, double h) const {
  if (model_->analysis.type == fem::AnalysisType::Static) return fem::TimeElement::load_increment(t, h);
  return fem::TimeElement::dynamic_step(t, h, model_->analysis.scheme);
}

fem::StepState CommittedState::describe(const fem::TimeElement& time) const {
  fem::StepState s{time, model_->nodes, states_, {}, nullptr};
  s.gravity = gravity_at(time.phase == fem::StepPhase::LoadIncrement ? time.t_end() : model_->analysis.t_end);
  // A new name for every description: whoever changes the states or the elements' histories
  // (a commit, a restore, a pseudo-transient correction) describes the next time element afresh.
  s.start_id = fem::new_start_id();
  return s;
}

void CommittedState::predict(const fem::TimeElement& time, Vec u, bool extrapolate) const {
  // Dynamic: constant acceleration, with the acceleration of the last step from its end and mean
  // velocities, a = 2 (v_n − Δx_n/h_n)/h_n: Δx = h v_n + ½ h² a, and b = h ω_n + ½ h² α from ω_n
  // and b_n alike. Exact for constant acceleration; for a smooth motion its error is O(h³)
  // where constant velocity's is O(h²): the spin-up beam's tip at 6 rad/s (Δt = 0.01) is
  // predicted within 2 mm instead of 18 mm, and the Jacobians evaluated there serve far longer.
  // The first step, and a step whose Newton iteration failed from it (large steps, where the
  // extrapolation overshoots), start from constant velocity, Δx = h v_n and b = h ω_n. Static:
  // the last converged increment scaled to the new one (a secant predictor along the load path);
  // zero for the first.
  // The nodes' part follows the analysis' type rather than the phase: an equilibrium at fixed time
  // in a dynamic run (h = 0) takes the dynamic branch and predicts Δx = h v_n, zero (signed like
  // v_n: the static branch's +0 could change the bits that follow).
  const double h = time.h;
  const bool is_static = model_->analysis.type == fem::AnalysisType::Static;
  const double secant = is_static && last_increment_h_ > 0.0 ? h / last_increment_h_ : 0.0;
  const double h_last = last_increment_h_ > 0.0 ? last_increment_h_ : 1.0;
  const double half_h2 = extrapolates(extrapolate) ? 0.5 * h * h : 0.0;
  PetscScalar* a = nullptr;
  check(VecGetArray(u, &a), "VecGetArray");
  const PetscInt first = tableau_->first_owned(), last = first + tableau_->n_owned();
  for (PetscInt i = first; i < last; ++i) a[i - first] = 0.0;
  auto set = [&](fem::BlockId block, const fem::Vec3& v) {
    const auto dofs = tableau_->global_map().dofs(block);
    for (int c = 0; c < 3; ++c)
      if (dofs[c] >= first && dofs[c] < last) a[dofs[c] - first] = v[c];
  };
  for (std::size_t n = 0; n < model_->nodes.size(); ++n) {
    const fem::Node& node = model_->nodes[n];
    if (is_static) {
      if (secant == 0.0) continue;
      set(node.displacement, secant * last_increment_[n].head<3>());
      if (node.rotation.valid()) set(node.rotation, secant * last_increment_[n].tail<3>());
    } else {
      const fem::NodeState& state = states_[n];
      fem::Vec3 dx = h * state.velocity, b = h * state.angular_velocity;
      if (half_h2 != 0.0) {
        const Eigen::Matrix<double, 6, 1>& last = last_increment_[n];
        dx += half_h2 * (2.0 / h_last) * (state.velocity - last.head<3>() / h_last);
        b += half_h2 * (2.0 / h_last) * (state.angular_velocity - last.tail<3>() / h_last);
      }
      set(node.displacement, dx);
      if (node.rotation.valid()) set(node.rotation, b);
    }
  }
  // The elements' own unknowns (joints' relative coordinates and multipliers).
  struct Sink final : fem::PredictionSink {
    const fem::DofMap* map = nullptr;
    PetscScalar* a = nullptr;
    PetscInt first = 0, last = 0;
    void set(fem::BlockId block, const double* values, int n) override {
      const auto dofs = map->dofs(block);
      for (int c = 0; c < n; ++c)
        if (dofs[c] >= first && dofs[c] < last) a[dofs[c] - first] = values[c];
    }
  } sink;
  sink.map = &tableau_->global_map();
  sink.a = a;
  sink.first = first;
  sink.last = last;
  const fem::StepState s = describe(time);
  // Every element with a block this rank owns, not only those it evaluates.
  if (ranks_ > 1)
    for (const std::size_t e : kept_elements_) model_->elements[e]->predict(s, sink);
  else
    for (const auto& e : model_->elements) e->predict(s, sink);
  check(VecRestoreArray(u, &a), "VecRestoreArray");
}


void CommittedState::commit(fem::StepState s, Vec u, Work work) {
  const double h = s.time.h;
  tableau_->gather_all(u, full_solution_);
  s.trial = full_solution_;
  s.map = &tableau_->global_map();
  if (work == Work::Tally) {
    // Per slot of the tableau's plan, so that threads give the same sums (assembly/stamp_plan.hpp).
    std::vector<fem::StepWork> slots(static_cast<std::size_t>(tableau_->n_element_slots()));
    tableau_->for_each_local_element([&](int slot, std::size_t e) {
      model_->elements[e]->add_step_work(s, slots[static_cast<std::size_t>(slot)]);
    });
    fem::StepWork w;
    for (const fem::StepWork& part : slots) w += part;
    double local[2] = {w.external_work, w.dissipated}, global[2] = {0, 0};
    MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, tableau_->comm());
    work_.external_work += global[0];
    work_.dissipated += global[1];
  }
  // On one rank its elements are the local ones; under MPI the ones it keeps.
  if (ranks_ > 1)
    for (const std::size_t e : kept_elements_) model_->elements[e]->commit(s);
  else
    tableau_->for_each_local_element([&](int, std::size_t e) { model_->elements[e]->commit(s); });
  const bool is_static = s.time.is_static();
  last_increment_.resize(states_.size());
  last_increment_h_ = h;
  for (std::size_t n = 0; n < states_.size(); ++n) {
    const fem::NodeId id{static_cast<std::int32_t>(n)};
    fem::NodeState& state = states_[n];
    const fem::Vec3 dx = s.increment(id);
    last_increment_[n].head<3>() = dx;
    if (!model_->nodes[n].rotation.valid()) {
      fem::advance(state, dx, nullptr, h, !is_static);
      continue;
    }
    const fem::Vec3 b = s.rotation_increment(id);
    last_increment_[n].tail<3>() = b;
    fem::advance(state, dx, &b, h, !is_static);
  }
}


fem::Vec3 CommittedState::gravity_at(double t) const {
  const fem::AnalysisSettings& a = model_->analysis;
  if (a.type != fem::AnalysisType::Static || !a.ramp_gravity) return model_->gravity;
  return model_->gravity * std::clamp(t / a.t_end, 0.0, 1.0);
}

EnergyRecord CommittedState::energy(double t) const {
  const fem::Vec3 gravity = gravity_at(t);
  std::vector<fem::StateEnergy> slots(static_cast<std::size_t>(tableau_->n_element_slots()));
  tableau_->for_each_local_element([&](int slot, std::size_t e) {
    model_->elements[e]->add_energy(states_, gravity, slots[static_cast<std::size_t>(slot)]);
  });
  fem::StateEnergy local;
  for (const fem::StateEnergy& part : slots) local += part;
  double in[9] = {local.kinetic, local.strain, local.potential, local.momentum.x(), local.momentum.y(),
                  local.momentum.z(), local.angular_momentum.x(), local.angular_momentum.y(),
                  local.angular_momentum.z()};
  double out[9];
  MPI_Allreduce(in, out, 9, MPI_DOUBLE, MPI_SUM, tableau_->comm());
  EnergyRecord r;
  r.t = t;
  r.state.kinetic = out[0];
  r.state.strain = out[1];
  r.state.potential = out[2];
  r.state.momentum = fem::Vec3(out[3], out[4], out[5]);
  r.state.angular_momentum = fem::Vec3(out[6], out[7], out[8]);
  r.work = work_;
  return r;
}


void CommittedState::save(IntegratorState& out) const {
  out.states = states_;
  out.work = work_;
  out.last_increment = last_increment_;
  out.last_increment_h = last_increment_h_;
}

void CommittedState::restore(const IntegratorState& saved) {
  states_ = saved.states;
  work_ = saved.work;
  last_increment_ = saved.last_increment;
  last_increment_h_ = saved.last_increment_h;
}

}  // namespace catena::solvers
