#include "solvers/time_integrator.hpp"

#include "solvers/adjoint_gradient.hpp"
#include "solvers/direct_sensitivity.hpp"
#include "solvers/element_histories.hpp"
#include "solvers/consistent_start.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace catena::solvers {

TimeIntegrator::TimeIntegrator(fem::Model& model, assembly::Tableau& tableau)
    : model_(&model),
      tableau_(&tableau),
      newton_(tableau, model.length_scale, newton_settings(model.analysis), counters_),
      state_(model, tableau),
      equilibrium_(model, tableau, newton_, state_, counters_),
      factorization_log_(tableau.comm()) {
  MPI_Comm_rank(tableau.comm(), &rank_);
}

RunStatistics TimeIntegrator::statistics() const {
  RunStatistics s{counters_, interrupted_, std::nullopt};
  // Under MPI rank 0's value is the one (element sensors read histories rank 0 keeps, as for
  // the rows); no collective here: the failures that ask for the figures may be rank 0's alone.
  if (model_->objective && rank_ == 0) s.objective = objective_.value + objective_final(*model_, state_.states(), t_);
  return s;
}

IntegratorState TimeIntegrator::snapshot(double t, long step, double h, int successes) const {
  IntegratorState st;
  st.t = t;
  st.step = step;
  st.h = h;
  st.successes = successes;
  st.written = written_;
  st.balance0 = balance0_;
  st.objective = objective_.value;
  st.objective_integrand = objective_.last_integrand;
  state_.save(st);
  st.element_history = save_element_histories(*model_, *tableau_);  // collective
  st.counters = counters_;
  factorization_log_.count(st.counters);  // collective
  st.kept_jacobian = newton_.kept_jacobian();  // collective
  if (sensitivity_) {
    for (const ParameterModels& p : sensitivity_->parameters()) st.sensitivity_parameters.push_back(p.name);
    st.sensitivity = sensitivity_->save();  // collective
  }
  return st;
}

void TimeIntegrator::restore(const IntegratorState& st) {
  const std::size_t nodes = state_.states().size();
  if (st.states.size() != nodes || st.element_history.size() != model_->elements.size())
    throw std::invalid_argument("the saved state has " + std::to_string(st.states.size()) + " nodes and " +
                                std::to_string(st.element_history.size()) + " elements, the model " +
                                std::to_string(nodes) + " and " + std::to_string(model_->elements.size()));
  state_.restore(st);
  restore_element_histories(*model_, st.element_history);
  written_ = st.written;
  balance0_ = st.balance0;
  objective_ = {st.objective, st.objective_integrand};
  copy_carried(st.counters, counters_);
  factorization_log_.carry_on(st.counters);
  newton_.restore_kept_jacobian(st.kept_jacobian);
  if (sensitivity_) sensitivity_->restore(st.sensitivity);
}

std::vector<double> TimeIntegrator::extrapolated_reactions(double t, Vec u) {
  const double h = 0.5 * model_->analysis.dt;
  std::vector<double> lambda[2];
  for (int k = 0; k < 2; ++k) {
    const fem::TimeElement time = state_.time_element(t, k == 0 ? h : 0.5 * h);
    state_.predict(time, u);
    const NewtonReport rep = newton_.solve(state_.describe(time), u, JacobianPolicy::Fresh);
    if (!rep.converged) return {};
    tableau_->gather_all(u, lambda[k]);
  }
  std::vector<double> at_t(lambda[0].size());
  for (std::size_t i = 0; i < at_t.size(); ++i) at_t[i] = 2.0 * lambda[1][i] - lambda[0][i];
  return at_t;
}

void TimeIntegrator::report_reactions(std::span<const double> x) {
  for (const auto& e : model_->elements) e->take_multipliers(x, tableau_->global_map());
}

void TimeIntegrator::start_reactions(Vec u) {
  const std::vector<double> at_start = extrapolated_reactions(0.0, u);
  if (!at_start.empty()) report_reactions(at_start);
}

std::vector<double> TimeIntegrator::report_instantaneous_reactions(double t, Vec u) {
  // The short steps start from velocities that meet the joints: the scheme holds them on the
  // joints only through the positions, and what a velocity leaves across a joint (O(Δt²)) a step
  // of length h stops with a force of order m v/h, which the extrapolation would magnify. The
  // committed velocities and the Jacobian Newton kept (the short steps overwrite it; put back as
  // a checkpoint's is) are restored, so the motion stays the same bit for bit.
  std::vector<double> step_average;
  tableau_->gather_all(u, step_average);  // u holds the converged step
  const KeptJacobian kept = newton_.kept_jacobian();
  const std::vector<fem::NodeState> committed(state_.states().begin(), state_.states().end());
  std::vector<double> at_t;
  try {
    static_cast<void>(project_velocities(*model_, *tableau_, state_, t));
    at_t = extrapolated_reactions(t, u);
  } catch (const InconsistentJoints&) {
    // Joints that became active since the start and contradict each other: the run goes on as
    // it would without this option; the row keeps the step average.
  }
  std::copy(committed.begin(), committed.end(), state_.states().begin());
  newton_.restore_kept_jacobian(kept);
  if (!at_t.empty()) report_reactions(at_t);
  return step_average;
}

void TimeIntegrator::prepare_start(Vec u) {
  const fem::AnalysisSettings& a = model_->analysis;
  equilibrium_.check_redundancy(u);
  // A dynamic run with joints starts from velocities that meet them, the closest to the given
  // ones (solvers/consistent_start.hpp; positions meet them by construction).
  const bool consistent_start = a.type == fem::AnalysisType::Dynamic && state_.has_multipliers();
  if (a.initial_equilibrium && a.type == fem::AnalysisType::Dynamic) equilibrium_.solve(u, 0.0, 1.0);
  if (consistent_start) {
    const VelocityProjectionReport p = project_velocities(*model_, *tableau_, state_, 0.0);
    counters_.initial_velocity_change = p.largest_change;
    counters_.initial_velocity_change_at = p.where;
    start_reactions(u);
  }
}

long nominal_steps(const fem::AnalysisSettings& a) {
  return std::max(1L, static_cast<long>(std::ceil(a.t_end / a.dt - 1e-9)));
}

void TimeIntegrator::emit(long frame_step, const EnergyRecord& e, bool row, bool vtk) {
  // Frames go to every rank (each keeps all node states), so that under MPI each rank can write
  // its piece of the VTK output; progress and checkpoints go to rank 0 only.
  Loop& l = *loop_;
  if (sensitivity_ && row) l.derivatives = sensitivity_->row(t_);  // collective
  l.observer->on_frame(Frame{t_, frame_step, model_, state_.states(), e, row, vtk,
                             sensitivity_ && row ? std::span<const double>(l.derivatives) : std::span<const double>()});
}

bool TimeIntegrator::vtk_due(long k) const {
  // VTK frames by steps (output.vtk_every, else analysis.output_every) or by time (output.dt:
  // the first nominal step that reaches each multiple of it).
  const fem::AnalysisSettings& a = model_->analysis;
  if (a.vtk_dt <= 0.0) return k % (a.vtk_every > 0 ? a.vtk_every : a.output_every) == 0;
  const auto interval = [&](long j) {
    return std::floor(std::min(static_cast<double>(j) * a.dt, a.t_end) / a.vtk_dt + 1e-9);
  };
  return interval(k) > interval(k - 1);
}

void TimeIntegrator::begin(Observer& observer, const std::atomic<bool>* stop, const IntegratorState* resume) {
  const fem::AnalysisSettings& a = model_->analysis;
  loop_.emplace(Loop{.observer = &observer,
                     .stop = stop,
                     .start = std::chrono::steady_clock::now(),
                     .u = tableau_->create_vector(),
                     .n_steps = nominal_steps(a),
                     .h_cur = a.dt});
  Loop& l = *loop_;
  t_ = 0.0;
  if (resume) {
    // Continue between two nominal steps exactly where the checkpoint left off: same state, same
    // step size control, same counters. Its frame is already written.
    restore(*resume);
    if (adjoint_) adjoint_->resume(*resume);
    t_ = resume->t;
    l.step = resume->step;
    l.h_cur = resume->h;
    l.successes = resume->successes;
  } else {
    prepare_start(l.u);
    // Rank 0 alone: element sensors read histories only it keeps for certain (CommittedState).
    if (rank_ == 0) objective_ = {0.0, objective_integrand(*model_, state_.states(), 0.0)};
    if (sensitivity_) sensitivity_->start();
    if (adjoint_) adjoint_->start();
    const EnergyRecord e0 = energy(0.0);
    balance0_ = e0.balance();
    emit(0, e0, true, true);
    written_ = FramesWritten{.frames = 1, .vtk_frames = 1};  // the frame of t = 0
  }
  l.t_start = t_;
}

void TimeIntegrator::finish_statistics() {
  // The finishing figures: this process's counts plus those of the run it continues.
  factorization_log_.count(counters_);
  counters_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - loop_->start).count();
}

bool TimeIntegrator::done() const { return !loop_ || interrupted_ || loop_->step >= loop_->n_steps; }

long TimeIntegrator::nominal_step() const { return loop_ ? loop_->step : 0; }

IntegratorState TimeIntegrator::checkpoint() const {
  if (!loop_) throw std::logic_error("TimeIntegrator::checkpoint: the run has not begun");
  return snapshot(t_, loop_->step, loop_->h_cur, loop_->successes);
}

bool TimeIntegrator::step() {
  if (done()) return false;
  const int iterations = solve_nominal_step();
  finish_nominal_step(iterations);
  return true;
}

int TimeIntegrator::solve_nominal_step() {
  Loop& l = *loop_;
  const fem::AnalysisSettings& a = model_->analysis;
  const double dt_min = a.dt_min > 0 ? a.dt_min : a.dt / 1024.0;
  // Dynamic steps keep a factored Jacobian while it contracts well; static increments, which
  // follow a load path with large changes of stiffness, use full Newton, and mechanisms among
  // them pseudo-transient continuation (StaticEquilibrium::solve_increment).
  const bool static_analysis = a.type == fem::AnalysisType::Static;
  const long k = l.step + 1;
  const double t_target = std::min(static_cast<double>(k) * a.dt, a.t_end);
  int iterations = 0;
  Vec u = l.u;
  while (t_ < t_target) {
    // Land exactly on the grid: never leave a round-off sliver for a separate time element.
    const double remaining = t_target - t_;
    const double h = remaining - l.h_cur < 1e-6 * l.h_cur ? remaining : l.h_cur;
    const fem::TimeElement time = state_.time_element(t_, h);
    state_.predict(time, u);
    const long corrections_before = counters_.equilibrium_iterations;
    NewtonReport rep = static_analysis ? equilibrium_.solve_increment(time, u)
                                       : newton_.solve(state_.describe(time), u, JacobianPolicy::Reuse);
    if (!rep.converged && state_.extrapolates(true)) {
      // The extrapolated start overshot (a step long against the motion's time scale): the
      // same step again from constant velocity before it is cut.
      counters_.newton_iterations += rep.iterations;
      iterations += rep.iterations;
      state_.predict(time, u, false);
      rep = newton_.solve(state_.describe(time), u, JacobianPolicy::Reuse);
    }
    counters_.newton_iterations += rep.iterations;
    iterations += rep.iterations;
    if (!rep.converged) {
      ++counters_.cut_steps;
      l.h_cur = 0.5 * h;
      l.successes = 0;
      if (l.h_cur < dt_min) fail_step(k, h, dt_min, rep);
      continue;
    }
    if ((sensitivity_ || adjoint_) && counters_.equilibrium_iterations != corrections_before)
      throw SolverFailure(format_numbers("t = %.6g s: sensitivity: this static increment was solved by "
                                         "pseudo-transient continuation, whose corrections are not equilibria; "
                                         "its derivative is not computed (smaller increments: analysis.dt)",
                                         t_),
                          t_);
    if (sensitivity_) sensitivity_->step(time, state_, u);
    if (adjoint_) adjoint_->record(*model_, *tableau_, time, state_, u);
    state_.commit(state_.describe(time), u);
    t_ = (h == remaining) ? t_target : t_ + h;
    if (model_->objective && rank_ == 0) objective_.add(h, objective_integrand(*model_, state_.states(), t_));
    ++counters_.steps;
    if (l.h_cur < a.dt && ++l.successes >= 4) {
      l.h_cur = std::min(2.0 * l.h_cur, a.dt);
      l.successes = 0;
    }
  }
  l.step = k;
  return iterations;
}

void TimeIntegrator::fail_step(long k, double h, double dt_min, const NewtonReport& rep) {
  const Loop& l = *loop_;
  counters_.t_reached = t_;
  std::string msg = format_numbers("t = %.6g s, step %.0f: Newton ", t_, static_cast<double>(k));
  msg += "failed (" + rep.reason + ") after " + std::to_string(rep.iterations) + " iterations";
  if (!rep.largest_owner.empty())
    msg += format_numbers(", |R| = %.3g; largest entry %.3g in ", rep.residual_norm, rep.largest_residual) +
           rep.largest_owner;
  msg += format_numbers("; the step h = %.3g s failed, and halving it would go below dt_min = %.3g s", h, dt_min);
  if (written_.last_frame_step != l.step || written_.last_vtk_frame_step != l.step)
    emit(l.step, energy(t_), written_.last_frame_step != l.step, written_.last_vtk_frame_step != l.step);
  finish_statistics();
  throw SolverFailure(msg, t_);
}

void TimeIntegrator::finish_nominal_step(int iterations) {
  Loop& l = *loop_;
  const fem::AnalysisSettings& a = model_->analysis;
  const long k = l.step;
  const EnergyRecord e = energy(t_);
  // A static load path is sampled at its increments, so its balance is no conservation law.
  counters_.max_energy_drift = a.type == fem::AnalysisType::Static
                                   ? std::numeric_limits<double>::quiet_NaN()
                                   : std::max(counters_.max_energy_drift, std::abs(e.balance() - balance0_));
  // Every rank must agree to stop after the same step.
  int stop_local = (l.stop && l.stop->load()) ? 1 : 0, stop_any = 0;
  MPI_Allreduce(&stop_local, &stop_any, 1, MPI_INT, MPI_MAX, tableau_->comm());
  const bool stopping = stop_any != 0;
  const bool row_due = k % a.output_every == 0 || k == l.n_steps;
  const bool frame_due = vtk_due(k) || k == l.n_steps;
  if (row_due || frame_due || stopping) {
    // With instantaneous reactions the row and frame read those at t; the next step goes on
    // from the step averages, put back after.
    const bool instantaneous_reactions =
        a.instantaneous_reactions && a.type == fem::AnalysisType::Dynamic && state_.has_multipliers();
    const std::optional<std::vector<double>> step_average =
        instantaneous_reactions ? std::optional(report_instantaneous_reactions(t_, l.u)) : std::nullopt;
    emit(k, e, row_due || stopping, frame_due || stopping);
    if (step_average) report_reactions(*step_average);
  }
  if (row_due) {
    ++written_.frames;
    written_.last_frame_step = k;
    written_.last_frame_t = t_;
  }
  if (frame_due) {
    ++written_.vtk_frames;
    written_.last_vtk_frame_step = k;
    written_.last_vtk_frame_t = t_;
  }
  // Checkpoints between steps (none after the last: the run is complete); also when stopping,
  // so that an interrupted run can be resumed.
  const bool checkpoint = a.checkpoint_every > 0 && k < l.n_steps && (k % a.checkpoint_every == 0 || stopping);
  if (checkpoint) {
    const IntegratorState state = snapshot(t_, k, l.h_cur, l.successes);  // collective
    if (rank_ == 0) l.observer->on_checkpoint(state);
  }
  if (rank_ == 0)
    l.observer->on_progress(Progress{t_, l.t_start, a.t_end, k, iterations,
                                     std::chrono::duration<double>(std::chrono::steady_clock::now() - l.start).count()});
  if (stopping) interrupted_ = true;
}

RunStatistics TimeIntegrator::end() {
  counters_.t_reached = t_;
  finish_statistics();
  return statistics();
}

RunStatistics TimeIntegrator::run(Observer& observer, const std::atomic<bool>* stop, const IntegratorState* resume) {
  begin(observer, stop, resume);
  while (step()) {
  }
  return end();
}

}  // namespace catena::solvers
