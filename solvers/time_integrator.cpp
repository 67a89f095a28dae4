#include "solvers/time_integrator.hpp"

#include "fem/step_rotation.hpp"
#include "solvers/redundancy.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <span>
#include <stdexcept>
#include <unordered_map>

namespace catena::solvers {

using assembly::check;

namespace {

std::string format(const char* fmt, double a, double b = 0.0) {
  char buf[128];
  std::snprintf(buf, sizeof buf, fmt, a, b);
  return buf;
}

}  // namespace

TimeIntegrator::TimeIntegrator(fem::Model& model, assembly::Tableau& tableau)
    : model_(&model),
      tableau_(&tableau),
      newton_(tableau, model.length_scale, newton_settings(model.analysis), counters_),
      states_(model.initial_state),
      factorization_log_(tableau.comm()) {
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
    if (rank_ == 0 && !model.sensors.empty()) {
      std::unordered_map<const fem::Element*, std::size_t> index;
      for (std::size_t e = 0; e < model.elements.size(); ++e) index.emplace(model.elements[e].get(), e);
      for (const fem::Sensor& s : model.sensors)
        if (const auto it = index.find(s.element); s.element && it != index.end()) keep[it->second] = 1;
    }
    for (std::size_t e = 0; e < keep.size(); ++e)
      if (keep[e]) kept_elements_.push_back(e);
  }
}

fem::StepState TimeIntegrator::context(double t, double h) const {
  const fem::TimeScheme scheme =
      model_->analysis.type == fem::AnalysisType::Static ? fem::TimeScheme::Static : model_->analysis.scheme;
  fem::StepState s{t, h, scheme, model_->nodes, states_, {}, nullptr};
  // A new name for every description: whoever changes the states or the elements' histories
  // (a commit, a restore, a relaxation round) describes the next time element afresh.
  s.start_id = fem::new_start_id();
  return s;
}

void TimeIntegrator::predict(double t, double h, Vec u, bool extrapolate) const {
  // Dynamic: constant acceleration, with the acceleration of the last step from its end and mean
  // velocities, a = 2 (v_n − Δx_n/h_n)/h_n: Δx = h v_n + ½ h² a, and b = h ω_n + ½ h² α from ω_n
  // and b_n alike. Exact for constant acceleration; for a smooth motion its error is O(h³)
  // where constant velocity's is O(h²): the spin-up beam's tip at 6 rad/s (Δt = 0.01) is
  // predicted within 2 mm instead of 18 mm, and the Jacobians evaluated there serve far longer.
  // The first step, and a step whose Newton iteration failed from it (large steps, where the
  // extrapolation overshoots), start from constant velocity, Δx = h v_n and b = h ω_n. Static:
  // the last converged increment scaled to the new one (a secant predictor along the load path);
  // zero for the first.
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
  const fem::StepState s = context(t, h);
  // Every element with a block this rank owns, not only those it evaluates.
  if (ranks_ > 1)
    for (const std::size_t e : kept_elements_) model_->elements[e]->predict(s, sink);
  else
    for (const auto& e : model_->elements) e->predict(s, sink);
  check(VecRestoreArray(u, &a), "VecRestoreArray");
}

void TimeIntegrator::commit(double t, double h, Vec u) { commit(context(t, h), u); }

void TimeIntegrator::commit(fem::StepState s, Vec u) {
  const double h = s.h;
  tableau_->gather_all(u, full_solution_);
  s.trial = full_solution_;
  s.map = &tableau_->global_map();
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
  // On one rank its elements are the local ones; under MPI the ones it keeps.
  if (ranks_ > 1)
    for (const std::size_t e : kept_elements_) model_->elements[e]->commit(s);
  else
    tableau_->for_each_local_element([&](int, std::size_t e) { model_->elements[e]->commit(s); });
  const bool is_static = s.scheme == fem::TimeScheme::Static;
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

void TimeIntegrator::check_redundancy(Vec u) {
  if (!has_multipliers_) return;
  const fem::StepState s = context(0.0, model_->analysis.dt);
  predict(0.0, model_->analysis.dt, u);
  tableau_->assemble_jacobian(s, u, tableau_->jacobian());
  const std::vector<std::string> dependent = dependent_unknowns(*tableau_, tableau_->jacobian());
  if (dependent.empty()) return;
  std::string msg = "the Newton matrix is singular at t = 0: " + std::to_string(dependent.size()) +
                    " unknown(s) cannot be determined (";
  for (std::size_t k = 0; k < dependent.size(); ++k) msg += (k ? ", " : "") + dependent[k];
  msg += "); these joints' constraints are redundant (an over-constrained loop): free those components, "
         "e.g. use a spherical or cylindrical joint for one joint of a planar loop, or run the model with planar";
  throw SolverFailure(msg, 0.0);
}

bool TimeIntegrator::relax_mechanism(Vec u) {
  // A mechanism held by joints (a hanging chain) has no static stiffness in its free directions
  // until its multipliers carry the loads: its static tangent is singular while they are zero.
  // Newton on the static residual with a mass-like shift 2m/h² on the node rows (the dynamic
  // tangent's diagonal at rest) takes bounded steps toward the equilibrium and establishes the
  // multipliers; the solution is the static one, only the path differs. Rounds of it, with h
  // starting at a tenth of √(L/g) (the mechanism's own time scale), doubling after a round that
  // stays finite and quartered after one that does not, leave the exact static solve a good start.
  const double g = model_->gravity.norm();
  double h = 0.1 * (g > 0.0 ? std::sqrt(model_->length_scale / g) : model_->analysis.dt);
  const assembly::VecHandle shift = tableau_->create_vector();
  for (int round = 0; round < 16; ++round) {
    check(VecZeroEntries(u), "VecZeroEntries");
    tableau_->assemble_jacobian(context(0.0, h), u, tableau_->jacobian());
    check(MatGetDiagonal(tableau_->jacobian(), shift), "MatGetDiagonal");
    // Rows of each kind get at least 1 % of the kind's largest shift: a slender bar's tiny
    // inertia about its axis must not let the step in that direction run away. Other rows
    // (relative coordinates, multipliers) get none.
    PetscScalar* a = nullptr;
    check(VecGetArray(shift, &a), "VecGetArray");
    auto node_kind = [&](PetscInt i) {  // 0: displacement, 1: rotation, -1: not a node row
      const fem::UnknownKind kind = tableau_->row_kind(tableau_->first_owned() + i);
      return kind == fem::UnknownKind::Displacement ? 0 : kind == fem::UnknownKind::Rotation ? 1 : -1;
    };
    double floor_local[2] = {0.0, 0.0}, floor[2] = {0.0, 0.0};
    for (PetscInt i = 0; i < tableau_->n_owned(); ++i)
      if (const int k = node_kind(i); k >= 0) floor_local[k] = std::max(floor_local[k], 1e-2 * std::abs(a[i]));
    MPI_Allreduce(floor_local, floor, 2, MPI_DOUBLE, MPI_MAX, tableau_->comm());
    for (PetscInt i = 0; i < tableau_->n_owned(); ++i) {
      const int k = node_kind(i);
      a[i] = k >= 0 ? std::max(std::abs(a[i]), floor[k]) : 0.0;
    }
    check(VecRestoreArray(shift, &a), "VecRestoreArray");
    fem::StepState s = context(0.0, 0.0);
    s.scheme = fem::TimeScheme::Static;
    predict(0.0, 0.0, u);
    newton_.set_jacobian_shift(shift);
    const NewtonReport rep = newton_.solve(s, u);
    newton_.set_jacobian_shift(nullptr);
    counters_.newton_iterations += rep.iterations;
    PetscReal norm = 0.0;
    check(VecNorm(u, NORM_INFINITY, &norm), "VecNorm");
    if (!std::isfinite(norm) || !std::isfinite(rep.residual_norm)) {
      h *= 0.25;  // too bold: a larger shift, from the same state
      continue;
    }
    const fem::StepWork before = work_;
    commit(s, u);  // even unconverged: a relaxation step toward the equilibrium
    work_ = before;
    if (rep.converged) return true;
    h *= 2.0;
  }
  return false;
}

void TimeIntegrator::solve_equilibrium(Vec u, double from, double to) {
  // Raise the loads in increments of the load factor: start with all of it, halve on failure,
  // double again after two successes. Work and energy are not tallied: the run starts here.
  // The relaxation works at load factor 1. When it converged there, its state is an equilibrium
  // that a singular static tangent (a body free to spin about its joint's axis) cannot improve on.
  const bool relaxed = has_multipliers_ && from == 0.0 && relax_mechanism(u) && to == 1.0;
  const double span = to - from;  // either sign: a buckling search also steps back
  const double min_increment = std::abs(span) / 4096;
  double lambda = from, increment = span;
  int successes = 0;
  while (lambda != to) {
    fem::StepState s = context(0.0, 0.0);
    s.scheme = fem::TimeScheme::Static;
    s.load_factor = std::abs(to - lambda) <= std::abs(increment) ? to : lambda + increment;
    predict(0.0, 0.0, u);  // no node increments; the joints' last multipliers
    const NewtonReport rep = newton_.solve(s, u);
    counters_.newton_iterations += rep.iterations;
    if (!rep.converged) {
      ++counters_.cut_steps;
      increment *= 0.5;
      successes = 0;
      if (relaxed && rep.singular) return;
      if (std::abs(increment) < min_increment) {
        std::string msg = format("initial equilibrium: Newton failed at load factor %.6g (", s.load_factor);
        msg += rep.reason + ")";
        if (!rep.largest_owner.empty()) msg += "; largest residual in " + rep.largest_owner;
        msg += "; the loads at t = 0 may have no static equilibrium (a mechanism, a free body)";
        throw SolverFailure(msg, 0.0);
      }
      continue;
    }
    const fem::StepWork before = work_;
    commit(s, u);
    work_ = before;
    lambda = s.load_factor;
    ++counters_.equilibrium_increments;
    if (++successes >= 2) {
      increment = std::abs(2.0 * increment) < std::abs(span) ? 2.0 * increment : span;
      successes = 0;
    }
  }
  last_increment_h_ = 0.0;  // the time steps start their predictor afresh
}

EnergyRecord TimeIntegrator::energy(double t) const {
  std::vector<fem::StateEnergy> slots(static_cast<std::size_t>(tableau_->n_element_slots()));
  tableau_->for_each_local_element([&](int slot, std::size_t e) {
    model_->elements[e]->add_energy(states_, slots[static_cast<std::size_t>(slot)]);
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

void TimeIntegrator::gather_histories(std::vector<std::vector<double>>& out) const {
  // Packed as (element, count, values...) per element this rank evaluates.
  std::vector<double> mine, history;
  for (const std::size_t e : tableau_->local_elements()) {
    history.clear();
    model_->elements[e]->save_history(history);
    mine.push_back(static_cast<double>(e));
    mine.push_back(static_cast<double>(history.size()));
    mine.insert(mine.end(), history.begin(), history.end());
  }
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(ranks_), 0), displacements(static_cast<std::size_t>(ranks_), 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, tableau_->comm());
  std::vector<double> all;
  if (rank_ == 0) {
    std::partial_sum(counts.begin(), counts.end() - 1, displacements.begin() + 1);
    all.resize(static_cast<std::size_t>(displacements.back() + counts.back()));
  }
  MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), displacements.data(), MPI_DOUBLE, 0,
              tableau_->comm());
  for (std::size_t k = 0; k + 1 < all.size();) {
    const auto e = static_cast<std::size_t>(all[k]);
    const auto n = static_cast<std::size_t>(all[k + 1]);
    const auto values = all.begin() + static_cast<std::ptrdiff_t>(k + 2);
    out[e].assign(values, values + static_cast<std::ptrdiff_t>(n));
    k += 2 + n;
  }
}

IntegratorState TimeIntegrator::snapshot(double t, long step, double h, int successes) const {
  IntegratorState st;
  st.t = t;
  st.step = step;
  st.h = h;
  st.successes = successes;
  st.frames = frames_;
  st.last_frame_step = last_frame_step_;
  st.last_frame_t = last_frame_t_;
  st.vtk_frames = vtk_frames_;
  st.last_vtk_frame_step = last_vtk_frame_step_;
  st.last_vtk_frame_t = last_vtk_frame_t_;
  st.balance0 = balance0_;
  st.states = states_;
  st.work = work_;
  st.last_increment = last_increment_;
  st.last_increment_h = last_increment_h_;
  st.element_history.resize(model_->elements.size());
  if (ranks_ == 1) {
    for (std::size_t e = 0; e < model_->elements.size(); ++e) model_->elements[e]->save_history(st.element_history[e]);
  } else {
    gather_histories(st.element_history);
  }
  st.counters = counters_;
  factorization_log_.count(st.counters);  // collective
  st.kept_jacobian = newton_.kept_jacobian();
  return st;
}

void TimeIntegrator::restore(const IntegratorState& st) {
  if (st.states.size() != states_.size() || st.element_history.size() != model_->elements.size())
    throw std::invalid_argument("the saved state has " + std::to_string(st.states.size()) + " nodes and " +
                                std::to_string(st.element_history.size()) + " elements, the model " +
                                std::to_string(states_.size()) + " and " + std::to_string(model_->elements.size()));
  states_ = st.states;
  work_ = st.work;
  last_increment_ = st.last_increment;
  last_increment_h_ = st.last_increment_h;
  for (std::size_t e = 0; e < model_->elements.size(); ++e) {
    std::span<const double> history = st.element_history[e];
    model_->elements[e]->restore_history(history);
    if (!history.empty())
      throw std::invalid_argument("element '" + model_->elements[e]->name() + "': the saved history has " +
                                  std::to_string(st.element_history[e].size()) + " values, " +
                                  std::to_string(history.size()) + " more than the element reads");
  }
  frames_ = st.frames;
  last_frame_step_ = st.last_frame_step;
  last_frame_t_ = st.last_frame_t;
  vtk_frames_ = st.vtk_frames;
  last_vtk_frame_step_ = st.last_vtk_frame_step;
  last_vtk_frame_t_ = st.last_vtk_frame_t;
  balance0_ = st.balance0;
  copy_carried(st.counters, counters_);
  factorization_log_.carry_on(st.counters);
  newton_.restore_kept_jacobian(st.kept_jacobian);
}

RunStatistics TimeIntegrator::run(Observer& observer, const std::atomic<bool>* stop, const IntegratorState* resume) {
  const auto start = std::chrono::steady_clock::now();
  const fem::AnalysisSettings& a = model_->analysis;
  const double dt_min = a.dt_min > 0 ? a.dt_min : a.dt / 1024.0;
  const long n_steps = std::max(1L, static_cast<long>(std::ceil(a.t_end / a.dt - 1e-9)));
  const assembly::VecHandle u = tableau_->create_vector();

  double t = 0.0;
  double h_cur = a.dt;
  int successes = 0;
  long step = 0;
  // Frames go to every rank (each keeps all node states), so that under MPI each rank can write
  // its piece of the VTK output; progress and checkpoints go to rank 0 only.
  auto emit = [&](long frame_step, const EnergyRecord& e, bool row, bool vtk) {
    observer.on_frame(Frame{t, frame_step, model_, states_, e, row, vtk});
  };
  // VTK frames by steps (output.vtk_every, else analysis.output_every) or by time (output.dt:
  // the first nominal step that reaches each multiple of it).
  const long vtk_every = a.vtk_every > 0 ? a.vtk_every : a.output_every;
  auto vtk_due = [&](long k) {
    if (a.vtk_dt <= 0.0) return k % vtk_every == 0;
    const auto interval = [&](long j) {
      return std::floor(std::min(static_cast<double>(j) * a.dt, a.t_end) / a.vtk_dt + 1e-9);
    };
    return interval(k) > interval(k - 1);
  };
  if (resume) {
    // Continue between two nominal steps exactly where the checkpoint left off: same state, same
    // step size control, same counters. Its frame is already written.
    restore(*resume);
    t = resume->t;
    step = resume->step;
    h_cur = resume->h;
    successes = resume->successes;
  } else {
    check_redundancy(u);
    if (a.initial_equilibrium && a.type == fem::AnalysisType::Dynamic) solve_equilibrium(u, 0.0, 1.0);
    const EnergyRecord e0 = energy(0.0);
    balance0_ = e0.balance();
    emit(0, e0, true, true);
    frames_ = 1;
    last_frame_step_ = 0;
    last_frame_t_ = 0.0;
    vtk_frames_ = 1;
    last_vtk_frame_step_ = 0;
    last_vtk_frame_t_ = 0.0;
  }
  const double t_start = t;
  // The finishing figures: this process's counts plus those of the run it continues.
  auto finish_statistics = [&] {
    factorization_log_.count(counters_);
    counters_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };

  // Dynamic steps keep a factored Jacobian while it contracts well; static increments, which
  // follow a load path with large changes of stiffness, use full Newton.
  const JacobianPolicy jacobian_policy =
      a.type == fem::AnalysisType::Dynamic ? JacobianPolicy::Reuse : JacobianPolicy::Fresh;
  for (long k = step + 1; k <= n_steps; ++k) {
    const double t_target = std::min(static_cast<double>(k) * a.dt, a.t_end);
    int iterations = 0;
    while (t < t_target) {
      // Land exactly on the grid: never leave a round-off sliver for a separate time element.
      const double remaining = t_target - t;
      const double h = remaining - h_cur < 1e-6 * h_cur ? remaining : h_cur;
      predict(t, h, u);
      NewtonReport rep = newton_.solve(context(t, h), u, jacobian_policy);
      if (!rep.converged && extrapolates(true)) {
        // The extrapolated start overshot (a step long against the motion's time scale): the
        // same step again from constant velocity before it is cut.
        counters_.newton_iterations += rep.iterations;
        iterations += rep.iterations;
        predict(t, h, u, false);
        rep = newton_.solve(context(t, h), u, jacobian_policy);
      }
      counters_.newton_iterations += rep.iterations;
      iterations += rep.iterations;
      if (!rep.converged) {
        ++counters_.cut_steps;
        h_cur = 0.5 * h;
        successes = 0;
        if (h_cur < dt_min) {
          counters_.t_reached = t;
          std::string msg = format("t = %.6g s, step %.0f: Newton ", t, static_cast<double>(k));
          msg += "failed (" + rep.reason + ") after " + std::to_string(rep.iterations) + " iterations";
          if (!rep.largest_owner.empty())
            msg += format(", |R| = %.3g; largest entry %.3g in ", rep.residual_norm, rep.largest_residual) +
                   rep.largest_owner;
          msg += format("; step cut down to %.3g s < dt_min = %.3g s", h, dt_min);
          if (last_frame_step_ != step || last_vtk_frame_step_ != step)
            emit(step, energy(t), last_frame_step_ != step, last_vtk_frame_step_ != step);
          finish_statistics();
          throw SolverFailure(msg, t);
        }
        continue;
      }
      commit(t, h, u);
      t = (h == remaining) ? t_target : t + h;
      ++counters_.steps;
      if (h_cur < a.dt && ++successes >= 4) {
        h_cur = std::min(2.0 * h_cur, a.dt);
        successes = 0;
      }
    }
    step = k;
    const EnergyRecord e = energy(t);
    // A static load path is sampled at its increments, so its balance is no conservation law.
    counters_.max_energy_drift = a.type == fem::AnalysisType::Static
                                  ? std::numeric_limits<double>::quiet_NaN()
                                  : std::max(counters_.max_energy_drift, std::abs(e.balance() - balance0_));
    // Every rank must agree to stop after the same step.
    int stop_local = (stop && stop->load()) ? 1 : 0, stop_any = 0;
    MPI_Allreduce(&stop_local, &stop_any, 1, MPI_INT, MPI_MAX, tableau_->comm());
    const bool stopping = stop_any != 0;
    const bool row_due = k % a.output_every == 0 || k == n_steps;
    const bool frame_due = vtk_due(k) || k == n_steps;
    if (row_due || frame_due || stopping) emit(step, e, row_due || stopping, frame_due || stopping);
    if (row_due) {
      ++frames_;
      last_frame_step_ = step;
      last_frame_t_ = t;
    }
    if (frame_due) {
      ++vtk_frames_;
      last_vtk_frame_step_ = step;
      last_vtk_frame_t_ = t;
    }
    // Checkpoints between steps (none after the last: the run is complete); also when stopping,
    // so that an interrupted run can be resumed.
    const bool checkpoint = a.checkpoint_every > 0 && k < n_steps && (k % a.checkpoint_every == 0 || stopping);
    if (checkpoint) {
      const IntegratorState state = snapshot(t, step, h_cur, successes);  // collective
      if (rank_ == 0) observer.on_checkpoint(state);
    }
    if (rank_ == 0)
      observer.on_progress(Progress{t, t_start, a.t_end, step, iterations,
                                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
    if (stopping) {
      interrupted_ = true;
      break;
    }
  }
  counters_.t_reached = t;
  finish_statistics();
  return statistics();
}

}  // namespace catena::solvers
