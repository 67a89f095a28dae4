#include "solvers/adjoint_gradient.hpp"

#include "solvers/element_histories.hpp"
#include "solvers/newton.hpp"
#include "solvers/objective.hpp"
#include "solvers/solver_failure.hpp"
#include "solvers/time_integrator.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace catena::solvers {

using assembly::check;
using assembly::quietly;

namespace {

/// Entries per node in the state space: a NodeTangent's (position, velocity, orientation as a
/// spatial rotation vector, angular velocity).
constexpr std::size_t node_entries = NodeTangent::RowsAtCompileTime;
/// Relative difference step of the partials along the state and the unknowns. Measured on the
/// four-bar's gradient against the direct method's (docs/sensitivity.md): 1e-3 left truncation
/// errors of 1e-5 (a node moved by 1e-3 of the model's size bends its short elements visibly),
/// 1e-4 of 1e-7, 1e-5 agrees to 1e-9 where the rounding (~1e-16 / step of the residual's terms)
/// does not yet show.
constexpr double relative_step = 1e-5;

void sort_unique(std::vector<std::size_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

/// Which nodes and residual rows each element reaches, from the blocks its `declare` coupled: an
/// element reads the committed states of the nodes whose blocks it couples, and stamps rows of
/// those blocks only.
struct Incidence {
  std::vector<std::vector<std::size_t>> element_nodes;
  std::vector<std::vector<std::size_t>> element_rows;
  std::vector<std::vector<std::size_t>> block_elements;
  std::vector<std::ptrdiff_t> block_node;  ///< −1: an element's own block
};

Incidence incidence_of(const fem::Model& model, const fem::DofMap& map) {
  Incidence in;
  const std::size_t n_blocks = model.registry.n_blocks();
  in.block_node.assign(n_blocks, -1);
  for (std::size_t n = 0; n < model.nodes.size(); ++n)
    for (const fem::BlockId b : {model.nodes[n].displacement, model.nodes[n].rotation})
      if (b.valid()) in.block_node[static_cast<std::size_t>(b.index)] = static_cast<std::ptrdiff_t>(n);
  in.block_elements.resize(n_blocks);
  in.element_nodes.resize(model.elements.size());
  in.element_rows.resize(model.elements.size());
  for (std::size_t e = 0; e < model.elements.size(); ++e) {
    std::vector<std::size_t> blocks;
    const auto [begin, end] = model.element_couplings[e];
    for (std::size_t c = begin; c < end; ++c)
      for (const fem::BlockId b : model.registry.couplings()[c]) blocks.push_back(static_cast<std::size_t>(b.index));
    sort_unique(blocks);
    for (const std::size_t b : blocks) {
      in.block_elements[b].push_back(e);
      if (in.block_node[b] >= 0) in.element_nodes[e].push_back(static_cast<std::size_t>(in.block_node[b]));
      for (const fem::Dof d : map.dofs(fem::BlockId{static_cast<std::int32_t>(b)}))
        if (d != fem::fixed_dof) in.element_rows[e].push_back(static_cast<std::size_t>(d));
    }
    sort_unique(in.element_nodes[e]);
    sort_unique(in.element_rows[e]);
  }
  return in;
}

/// Stops a replayed run after a nominal step: the integrator tests its stop flag after each step
/// and stops after the next, so the flag is set at the step before (rank 0 hears the progress;
/// the integrator makes every rank agree).
class StopAfterStep : public Observer {
 public:
  StopAfterStep(std::atomic<bool>& stop, long step) : stop_(&stop), step_(step) {}
  void on_progress(const Progress& p) override {
    if (p.step + 1 >= step_) stop_->store(true);
  }

 private:
  std::atomic<bool>* stop_;
  long step_;
};

/// Greedy colouring of the columns' intersection graph: a column takes the first colour none of
/// whose columns shares one of its rows.
std::vector<std::vector<std::size_t>> colour_columns(const std::vector<std::vector<std::size_t>>& rows,
                                                     std::size_t n_rows) {
  std::vector<std::vector<std::size_t>> colours;
  std::vector<std::vector<char>> taken;
  for (std::size_t j = 0; j < rows.size(); ++j) {
    std::size_t c = 0;
    for (; c < colours.size(); ++c)
      if (std::none_of(rows[j].begin(), rows[j].end(), [&](std::size_t r) { return taken[c][r] != 0; })) break;
    if (c == colours.size()) {
      colours.emplace_back();
      taken.emplace_back(n_rows, 0);
    }
    colours[c].push_back(j);
    for (const std::size_t r : rows[j]) taken[c][r] = 1;
  }
  return colours;
}

/// The nodes and elements a sensor reads (its frame's node, its parts').
void add_sensor_sources(const fem::Model& model, const fem::Sensor& s, std::vector<std::size_t>& nodes,
                        std::vector<std::size_t>& elements) {
  if (!s.parts.empty()) {
    for (const fem::WeightedSensor& p : s.parts) add_sensor_sources(model, p.sensor, nodes, elements);
    return;
  }
  if (s.quantity == fem::SensorQuantity::ElementField) {
    for (std::size_t e = 0; e < model.elements.size(); ++e)
      if (model.elements[e].get() == s.element) elements.push_back(e);
    return;
  }
  nodes.push_back(static_cast<std::size_t>(s.node.index));
  if (s.frame && s.frame->node) nodes.push_back(static_cast<std::size_t>(s.frame->node->index));
}

double dot(std::span<const double> a, std::span<const double> b) {
  return std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
}

}  // namespace

AdjointGradient::AdjointGradient(fem::Model& model, assembly::Tableau& tableau,
                                 std::vector<ParameterModels> parameters)
    : model_(&model), tableau_(&tableau), start_(model, tableau, std::move(parameters)), scratch_(model, tableau) {
  if (!model.objective) throw std::invalid_argument("--gradient: the model has no analysis.objective to differentiate");
  MPI_Comm_size(tableau.comm(), &ranks_);
  history_offset_.push_back(node_entries * model.nodes.size());
  for (const auto& e : model.elements) {
    std::vector<double> h;  // its size: every rank knows it, whatever values it keeps
    e->save_history(h);
    history_offset_.push_back(history_offset_.back() + h.size());
  }

  // The patterns: a node's state reaches the rows of the elements on it, its own commit and their
  // histories; a history, its element's rows and itself; an unknown, its node's commit or the
  // histories of the elements that couple its block.
  const Incidence in = incidence_of(model, tableau.global_map());
  const auto n_u = static_cast<std::size_t>(tableau.n_global());
  const std::size_t n_s = state_size();
  std::vector<std::vector<std::size_t>> node_elements(model.nodes.size());
  for (std::size_t e = 0; e < model.elements.size(); ++e)
    for (const std::size_t n : in.element_nodes[e]) node_elements[n].push_back(e);
  const auto add_history_outputs = [&](std::size_t e, std::vector<std::size_t>& rows) {
    for (std::size_t i = history_offset_[e]; i < history_offset_[e + 1]; ++i) rows.push_back(n_u + i);
  };
  const auto add_node_outputs = [&](std::size_t n, std::vector<std::size_t>& rows) {
    for (std::size_t i = 0; i < node_entries; ++i) rows.push_back(n_u + node_entries * n + i);
  };
  state_colouring_.rows.resize(n_s);
  for (std::size_t n = 0; n < model.nodes.size(); ++n) {
    std::vector<std::size_t> rows;
    for (const std::size_t e : node_elements[n]) {
      rows.insert(rows.end(), in.element_rows[e].begin(), in.element_rows[e].end());
      add_history_outputs(e, rows);
    }
    add_node_outputs(n, rows);
    sort_unique(rows);
    for (std::size_t i = 0; i < node_entries; ++i) state_colouring_.rows[node_entries * n + i] = rows;
  }
  for (std::size_t e = 0; e < model.elements.size(); ++e) {
    std::vector<std::size_t> rows = in.element_rows[e];
    add_history_outputs(e, rows);
    for (std::size_t i = history_offset_[e]; i < history_offset_[e + 1]; ++i) state_colouring_.rows[i] = rows;
  }
  state_colouring_.colours = colour_columns(state_colouring_.rows, n_u + n_s);

  unknown_colouring_.rows.resize(n_u);
  for (std::size_t b = 0; b < in.block_elements.size(); ++b) {
    std::vector<std::size_t> rows;
    if (in.block_node[b] >= 0) add_node_outputs(static_cast<std::size_t>(in.block_node[b]), rows);
    for (const std::size_t e : in.block_elements[b]) add_history_outputs(e, rows);
    sort_unique(rows);
    for (const fem::Dof d : tableau.global_map().dofs(fem::BlockId{static_cast<std::int32_t>(b)}))
      if (d != fem::fixed_dof) unknown_colouring_.rows[static_cast<std::size_t>(d)] = rows;
  }
  unknown_colouring_.colours = colour_columns(unknown_colouring_.rows, n_u + n_s);

  std::vector<std::size_t> nodes, elements;
  for (const fem::Sensor& s : model.sensors) add_sensor_sources(model, s, nodes, elements);
  sort_unique(nodes);
  sort_unique(elements);
  for (const std::size_t e : elements) {
    nodes.insert(nodes.end(), in.element_nodes[e].begin(), in.element_nodes[e].end());
    for (std::size_t i = history_offset_[e]; i < history_offset_[e + 1]; ++i) objective_entries_.push_back(i);
  }
  sort_unique(nodes);
  for (const std::size_t n : nodes)
    for (std::size_t i = 0; i < node_entries; ++i) objective_entries_.push_back(node_entries * n + i);
  sort_unique(objective_entries_);

  u_ = tableau.create_vector();
  f_ = tableau.create_vector();
  solve_ = pivoting_solve(tableau, "adjoint_");
}

AdjointGradient::~AdjointGradient() = default;

std::vector<std::vector<double>> AdjointGradient::histories_of(const fem::Model& model, const assembly::Tableau& tableau) const {
  std::vector<std::vector<double>> h = save_element_histories(model, tableau);
  if (ranks_ == 1) return h;
  // Under MPI a rank commits only the elements it keeps: every history from the rank that
  // evaluates it, gathered on rank 0 (save_element_histories) and sent to all, so that every rank
  // carries the same sweep.
  std::vector<double> flat(history_offset_.back() - history_offset_.front());
  for (std::size_t e = 0; e < h.size(); ++e)
    std::copy(h[e].begin(), h[e].end(), flat.begin() + static_cast<std::ptrdiff_t>(history_offset_[e] - history_offset_[0]));
  MPI_Bcast(flat.data(), static_cast<int>(flat.size()), MPI_DOUBLE, 0, tableau.comm());
  for (std::size_t e = 0; e < h.size(); ++e) {
    const auto first = flat.begin() + static_cast<std::ptrdiff_t>(history_offset_[e] - history_offset_[0]);
    h[e].assign(first, first + static_cast<std::ptrdiff_t>(history_offset_[e + 1] - history_offset_[e]));
  }
  return h;
}

std::vector<std::vector<double>> AdjointGradient::histories_of(const fem::Model& model) const {
  return histories_of(model, *tableau_);
}

fem::Vec3 AdjointGradient::reference_shift(const fem::Model& model, std::size_t n) const {
  return model.nodes[n].reference_position - model_->nodes[n].reference_position;
}

void AdjointGradient::set_owned(Vec x, const std::vector<double>& global) const {
  PetscScalar* a = nullptr;
  check(VecGetArray(x, &a), "VecGetArray");
  std::copy_n(global.begin() + tableau_->first_owned(), tableau_->n_owned(), a);
  check(VecRestoreArray(x, &a), "VecRestoreArray");
}

void AdjointGradient::record(const fem::Model& model, assembly::Tableau& tableau, const fem::TimeElement& time,
                             const CommittedState& state, Vec u) {
  Step s{time, {{state.states().begin(), state.states().end()}, histories_of(model, tableau)}, {}};
  tableau.gather_all(u, s.u);
  steps_.push_back(std::move(s));
}

void AdjointGradient::resume(const IntegratorState& resume) {
  if (!model_source_)
    throw std::invalid_argument("--gradient: a continued run needs the model file to replay the time elements before "
                                "its checkpoint");
  // The time elements before the checkpoint: the run from t = 0 again, recorded, stopped after the
  // checkpoint's nominal step. A restart continues bit for bit, so this is the interrupted run's
  // own trajectory (checked by its count of time elements).
  std::vector<Step> after = std::move(steps_);
  steps_.clear();
  fem::Model model = model_source_();
  assembly::Tableau tableau(model, tableau_->comm());
  TimeIntegrator replay(model, tableau);
  replay.set_adjoint(this);
  std::atomic<bool> stop(resume.step <= 1);
  StopAfterStep observer(stop, resume.step);
  replay.run(observer, &stop);
  if (static_cast<long>(steps_.size()) != resume.counters.steps)
    throw std::runtime_error("--gradient: the run replayed up to the checkpoint took " + std::to_string(steps_.size()) +
                             " time elements, the checkpoint says " + std::to_string(resume.counters.steps) +
                             " (another model or settings?)");
  for (Step& s : after) steps_.push_back(std::move(s));
}

std::size_t AdjointGradient::bytes_stored() const {
  std::size_t bytes = 0;
  for (const Step& s : steps_) {
    bytes += sizeof(Step) + s.start.states.size() * sizeof(fem::NodeState) + s.u.size() * sizeof(double);
    for (const auto& h : s.start.histories) bytes += sizeof(h) + h.size() * sizeof(double);
  }
  return bytes;
}

void AdjointGradient::choose_steps() {
  // Per entry the largest magnitude it takes, floored by its natural unit (the model's length
  // for positions and velocities per second, one for rotations, rates, histories, multipliers).
  const double length = model_->length_scale;
  state_step_.assign(state_size(), 0.0);
  for (std::size_t n = 0; n < model_->nodes.size(); ++n)
    for (std::size_t i = 0; i < node_entries; ++i) state_step_[node_entries * n + i] = i < 6 ? length : 1.0;
  unknown_step_.assign(static_cast<std::size_t>(tableau_->n_global()), 0.0);
  for (std::size_t r = 0; r < unknown_step_.size(); ++r)
    unknown_step_[r] = tableau_->row_kind(static_cast<PetscInt>(r)) == fem::UnknownKind::Displacement ? length : 1.0;
  for (const Step& s : steps_) {
    for (std::size_t n = 0; n < s.start.states.size(); ++n) {
      const fem::NodeState& x = s.start.states[n];
      double& v = state_step_[node_entries * n + 3];
      v = std::max(v, x.velocity.norm());
      double& w = state_step_[node_entries * n + 9];
      w = std::max(w, x.angular_velocity.norm());
    }
    for (std::size_t e = 0; e < s.start.histories.size(); ++e)
      for (std::size_t i = 0; i < s.start.histories[e].size(); ++i) {
        double& h = state_step_[history_offset_[e] + i];
        h = std::max({h, 1.0, std::abs(s.start.histories[e][i])});
      }
    for (std::size_t r = 0; r < s.u.size(); ++r) unknown_step_[r] = std::max(unknown_step_[r], std::abs(s.u[r]));
  }
  for (std::size_t n = 0; n < model_->nodes.size(); ++n) {
    for (const std::size_t first : {3, 9})
      for (std::size_t i = 1; i < 3; ++i) state_step_[node_entries * n + first + i] = state_step_[node_entries * n + first];
  }
  for (double& s : state_step_) s *= relative_step;
  for (double& s : unknown_step_) s *= relative_step;
}

void AdjointGradient::put_state(fem::Model& model, CommittedState& scratch, const Snapshot& s,
                                const std::vector<double>& delta, double a) const {
  const std::span<fem::NodeState> out = scratch.states();
  std::copy(s.states.begin(), s.states.end(), out.begin());
  // Positions are the state as displacements from the reference: a parameter's model sees them
  // from its own reference positions (see reference_shift).
  if (&model != model_)
    for (std::size_t n = 0; n < out.size(); ++n) out[n].position += reference_shift(model, n);
  std::vector<std::vector<double>> h = s.histories;
  if (!delta.empty()) {
    for (std::size_t n = 0; n < out.size(); ++n)
      out[n] = moved_node_state(out[n], NodeTangent::Map(delta.data() + node_entries * n), a);
    for (std::size_t e = 0; e < h.size(); ++e)
      for (std::size_t i = 0; i < h[e].size(); ++i) h[e][i] += a * delta[history_offset_[e] + i];
  }
  restore_element_histories(model, h);
}

AdjointGradient::Snapshot AdjointGradient::evaluate(fem::Model& model, CommittedState& scratch, const Step& step,
                                                    const std::vector<double>& delta, const std::vector<double>& v,
                                                    double a, std::vector<double>* residual) {
  put_state(model, scratch, step.start, delta, a);
  std::vector<double> u = step.u;
  if (!v.empty())
    for (std::size_t r = 0; r < u.size(); ++r) u[r] += a * v[r];
  set_owned(u_, u);
  const fem::StepState context = scratch.describe(step.time);
  if (residual) {
    tableau_->assemble_residual_of(model, context, u_, f_);
    tableau_->gather_all(f_, *residual);
  }
  scratch.commit(context, u_, CommittedState::Work::Leave);
  Snapshot out{{scratch.states().begin(), scratch.states().end()}, histories_of(model)};
  if (&model != model_)
    for (std::size_t n = 0; n < out.states.size(); ++n) out.states[n].position -= reference_shift(model, n);
  return out;
}

std::vector<double> AdjointGradient::difference(const std::array<Snapshot, 4>& o,
                                                const std::array<std::vector<double>, 4>* residuals,
                                                double step) const {
  const std::size_t n_u = steps_.empty() ? 0 : steps_.front().u.size();
  std::vector<double> out(n_u + state_size(), 0.0);
  if (residuals)
    for (std::size_t r = 0; r < n_u; ++r)
      out[r] = fourth_order_difference((*residuals)[0][r], (*residuals)[1][r], (*residuals)[2][r], (*residuals)[3][r],
                                       step);
  double* s = out.data() + n_u;
  for (std::size_t n = 0; n < o[0].states.size(); ++n)
    NodeTangent::Map(s + node_entries * n) =
        node_state_difference(o[0].states[n], o[1].states[n], o[2].states[n], o[3].states[n], step);
  for (std::size_t e = 0; e < o[0].histories.size(); ++e)
    for (std::size_t i = 0; i < o[0].histories[e].size(); ++i)
      s[history_offset_[e] + i] = fourth_order_difference(o[0].histories[e][i], o[1].histories[e][i],
                                                          o[2].histories[e][i], o[3].histories[e][i], step);
  return out;
}

std::vector<double> AdjointGradient::directional(const Step& step, const std::vector<double>& delta,
                                                 const std::vector<double>& v, bool residual) {
  std::array<Snapshot, 4> outputs;
  std::array<std::vector<double>, 4> residuals;
  for (std::size_t k = 0; k < difference_multiples.size(); ++k)
    outputs[k] = evaluate(*model_, scratch_, step, delta, v, difference_multiples[k], residual ? &residuals[k] : nullptr);
  return difference(outputs, residual ? &residuals : nullptr, 1.0);
}

template <class F>
void AdjointGradient::for_each_partial(const Step& step, bool of_state, const Colouring& colouring, const F& f) {
  const std::vector<double>& steps = of_state ? state_step_ : unknown_step_;
  for (const std::vector<std::size_t>& colour : colouring.colours) {
    std::vector<double> along(steps.size(), 0.0);
    for (const std::size_t j : colour) along[j] = steps[j];
    const std::vector<double> d = of_state ? directional(step, along, {}, true) : directional(step, {}, along, false);
    for (const std::size_t j : colour)
      for (const std::size_t r : colouring.rows[j]) f(j, r, d[r] / steps[j]);
  }
}

double AdjointGradient::objective_at(fem::Model& model, CommittedState& scratch, const Snapshot& s,
                                     const std::vector<double>& delta, double a, double t, bool final) const {
  put_state(model, scratch, s, delta, a);
  return final ? objective_final(model, scratch.states(), t) : objective_integrand(model, scratch.states(), t);
}

void AdjointGradient::add_objective_gradient(const Snapshot& s, double t, bool final, double weight,
                                             std::vector<double>& mu) {
  if (weight == 0.0 || !(final ? model_->objective->final : model_->objective->integrand)) return;
  std::vector<double> delta(state_size(), 0.0);
  for (const std::size_t i : objective_entries_) {
    delta[i] = state_step_[i];
    std::array<double, 4> g{};
    for (std::size_t k = 0; k < 4; ++k)
      g[k] = objective_at(*model_, scratch_, s, delta, difference_multiples[k], t, final);
    mu[i] += weight * fourth_order_difference(g[0], g[1], g[2], g[3], state_step_[i]);
    delta[i] = 0.0;
  }
}

void AdjointGradient::add_objective_parameter_partials(const Snapshot& s, double t, bool final, double weight,
                                                       std::vector<double>& grad) {
  if (weight == 0.0 || !(final ? model_->objective->final : model_->objective->integrand)) return;
  for (std::size_t j = 0; j < grad.size(); ++j) {
    std::array<double, 4> g{};
    for (std::size_t k = 0; k < 4; ++k)
      g[k] = objective_at(start_.perturbed_model(j, k), start_.perturbed_state(j, k), s, {}, 0.0, t, final);
    grad[j] += weight * fourth_order_difference(g[0], g[1], g[2], g[3], parameters()[j].step);
  }
}

void AdjointGradient::add_parameter_partials(const Step& step, const std::vector<double>& mu,
                                             const std::vector<double>& nu, std::vector<double>& grad) {
  for (std::size_t j = 0; j < grad.size(); ++j) {
    std::array<Snapshot, 4> outputs;
    std::array<std::vector<double>, 4> residuals;
    for (std::size_t k = 0; k < 4; ++k)
      outputs[k] = evaluate(start_.perturbed_model(j, k), start_.perturbed_state(j, k), step, {}, {}, 0.0,
                            &residuals[k]);
    const std::vector<double> d = difference(outputs, &residuals, parameters()[j].step);
    const std::span<const double> all(d);
    grad[j] += dot(mu, all.subspan(nu.size())) - dot(nu, all.first(nu.size()));
  }
}

std::vector<std::vector<double>> AdjointGradient::partial_matrix(std::size_t step, bool of_state, bool coloured) {
  if (state_step_.empty()) choose_steps();
  const std::size_t n_u = static_cast<std::size_t>(tableau_->n_global());
  const std::size_t n_columns = of_state ? state_size() : n_u;
  std::vector<std::vector<double>> m(n_u + state_size(), std::vector<double>(n_columns, 0.0));
  Colouring every;
  const Colouring* colouring = of_state ? &state_colouring_ : &unknown_colouring_;
  if (!coloured) {
    std::vector<std::size_t> all(n_u + state_size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    for (std::size_t j = 0; j < n_columns; ++j) every.colours.push_back({j});
    every.rows.assign(n_columns, all);
    colouring = &every;
  }
  // The evaluations move the run's model's histories: they are the run's final ones, which
  // `gradient` takes, so they are put back.
  const std::vector<std::vector<double>> run_histories = histories_of(*model_);
  for_each_partial(steps_.at(step), of_state, *colouring,
                   [&](std::size_t j, std::size_t r, double value) { m[r][j] = value; });
  restore_element_histories(*model_, run_histories);
  return m;
}

std::vector<double> AdjointGradient::gradient(std::span<const fem::NodeState> final_states) {
  const std::vector<std::vector<double>> run_histories = histories_of(*model_);
  choose_steps();
  const std::size_t n_u = static_cast<std::size_t>(tableau_->n_global());
  const std::size_t n_steps = steps_.size();
  std::vector<double> grad(parameters().size(), 0.0);
  std::vector<double> mu(state_size(), 0.0);
  const Snapshot final{{final_states.begin(), final_states.end()}, run_histories};
  const double t_end = n_steps == 0 ? 0.0 : steps_.back().time.t_end();
  const double w_end = n_steps == 0 ? 0.0 : 0.5 * steps_.back().time.h;
  add_objective_gradient(final, t_end, false, w_end, mu);
  add_objective_gradient(final, t_end, true, 1.0, mu);
  add_objective_parameter_partials(final, t_end, false, w_end, grad);
  add_objective_parameter_partials(final, t_end, true, 1.0, grad);

  const assembly::VecHandle rhs = tableau_->create_vector();
  const assembly::VecHandle nu_vec = tableau_->create_vector();
  std::vector<double> nu(n_u), rhs_values(n_u), mu_start(state_size());
  for (std::size_t n = n_steps; n-- > 0;) {
    const Step& step = steps_[n];
    // (∂A/∂u)ᵀ μ_{n+1}
    std::fill(rhs_values.begin(), rhs_values.end(), 0.0);
    for_each_partial(step, false, unknown_colouring_,
                     [&](std::size_t d, std::size_t r, double value) { rhs_values[d] += value * mu[r - n_u]; });
    // Jᵀ ν = (∂A/∂u)ᵀ μ_{n+1}, J the exact Jacobian at the converged step.
    put_state(*model_, scratch_, step.start, {}, 0.0);
    set_owned(u_, step.u);
    set_owned(rhs, rhs_values);
    tableau_->assemble_jacobian(scratch_.describe(step.time), u_, solve_.jacobian);
    check(KSPSetOperators(solve_.ksp, solve_.jacobian, solve_.jacobian), "KSPSetOperators");
    const PetscErrorCode code = quietly([&] { return KSPSolveTranspose(solve_.ksp, rhs, nu_vec); });
    KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
    if (code == 0) check(KSPGetConvergedReason(solve_.ksp, &reason), "KSPGetConvergedReason");
    if (code != 0 || reason < 0)
      throw SolverFailure(format_numbers("t = %.6g s: adjoint: the Jacobian at the converged step is singular "
                                         "(its derivative is not defined: a mechanism without stiffness?)",
                                         step.time.t_n),
                          step.time.t_n);
    tableau_->gather_all(nu_vec, nu);
    add_parameter_partials(step, mu, nu, grad);
    // μ_n = (∂A/∂S)ᵀ μ_{n+1} − (∂R/∂S)ᵀ ν + w_n g_S(S_n)
    std::fill(mu_start.begin(), mu_start.end(), 0.0);
    for_each_partial(step, true, state_colouring_, [&](std::size_t j, std::size_t r, double value) {
      mu_start[j] += r < n_u ? -value * nu[r] : value * mu[r - n_u];
    });
    const double w = 0.5 * (step.time.h + (n > 0 ? steps_[n - 1].time.h : 0.0));
    add_objective_gradient(step.start, step.time.t_n, false, w, mu_start);
    add_objective_parameter_partials(step.start, step.time.t_n, false, w, grad);
    mu.swap(mu_start);
  }
  // μ_0ᵀ dS_0/dp: the start's derivative, the direct method's.
  for (std::size_t j = 0; j < grad.size(); ++j) {
    const StateTangent& t = start_.tangents()[j];
    for (std::size_t n = 0; n < t.nodes.size(); ++n) {
      NodeTangent d = t.nodes[n];
      // In displacements from the reference: less the reference's own derivative.
      d.head<3>() -= fourth_order_difference(reference_shift(start_.perturbed_model(j, 0), n),
                                             reference_shift(start_.perturbed_model(j, 1), n),
                                             reference_shift(start_.perturbed_model(j, 2), n),
                                             reference_shift(start_.perturbed_model(j, 3), n), parameters()[j].step);
      grad[j] += dot(std::span<const double>(mu).subspan(node_entries * n, node_entries),
                     std::span<const double>(d.data(), node_entries));
    }
    for (std::size_t e = 0; e < t.histories.size(); ++e)
      for (std::size_t i = 0; i < t.histories[e].size(); ++i) grad[j] += mu[history_offset_[e] + i] * t.histories[e][i];
  }
  restore_element_histories(*model_, run_histories);
  return grad;
}

}  // namespace catena::solvers
