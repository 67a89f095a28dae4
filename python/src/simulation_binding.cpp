#include "simulation_binding.hpp"

#include "conversions.hpp"
#include "errors.hpp"
#include "interrupt.hpp"
#include "runtime.hpp"

#include "app/simulation.hpp"
#include "assembly/collectives.hpp"
#include "io/summary_writer.hpp"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>


#include <atomic>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <string>

namespace catena::python {

namespace py = pybind11;

namespace {

/// PETSc is not thread-safe: one simulation works at a time, whichever Python thread drives it.
/// A call that solves takes it with the GIL released (never waiting for the GIL while holding
/// it), a call that reads takes it holding the GIL.
std::mutex& solver_mutex() {
  static std::mutex m;
  return m;
}

py::dict json_object(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

/// summary.json's text of a finished eigen or buckling analysis (which writes it itself); none
/// when it is not there.
std::optional<std::string> read_summary(const std::filesystem::path& out) {
  std::ifstream in(out / "summary.json");
  if (!in) return std::nullopt;
  return std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// summary.json's text, rank 0's on every rank: rank 0 alone evaluates the objective (from element
/// sensors) and its gradient (collective).
std::string rank_0s_summary(const io::SummaryData& summary) {
  std::string text = io::summary_json(summary);
  assembly::broadcast_text_from_root(text);
  return text;
}

/// A run driven from Python; its Python object owns it.
class SimulationHandle final : public PetscUser {
  // First: their return types are deduced where they are used.
  app::Simulation& simulation() const {
    if (!simulation_)
      throw Error(1, "this simulation is gone: PETSc has finished (the interpreter is exiting), or this process "
                     "was forked from the one that made it");
    return *simulation_;
  }
  template <class Solve>
  auto solving(Solve solve) {
    const py::gil_scoped_release unlocked;
    const std::lock_guard lock(solver_mutex());
    return solve();
  }

 public:
  explicit SimulationHandle(app::SimulationOptions options) {
    options.stop = &stop_;
    ensure_started();
    solving([&] { simulation_ = std::make_unique<app::Simulation>(std::move(options)); });
    add_user(*this);
  }
  ~SimulationHandle() override {
    remove_user(*this);
    release();
  }
  SimulationHandle(const SimulationHandle&) = delete;
  SimulationHandle& operator=(const SimulationHandle&) = delete;

  void release() noexcept override {
    const std::lock_guard lock(solver_mutex());
    simulation_.reset();
  }
  void abandon() noexcept override { static_cast<void>(simulation_.release()); }

  void start() {
    solving([&] { simulation().start(); });
  }
  bool step() {
    return solving([&] { return simulation().step(); });
  }
  long advance(double t) {
    StopOnInterrupt interrupt(stop_);
    const long steps = solving([&] { return simulation().advance_to(t); });
    interrupt.hand_back();
    return steps;
  }
  py::dict run();
  py::dict finish();

  /// `use(simulation)` holding the GIL, for what takes no time (reading the state, setting an input).
  template <class Use>
  auto locked(Use use) const {
    const std::lock_guard lock(solver_mutex());
    return use(simulation());
  }
  [[nodiscard]] py::object summary() const {
    return summary_ ? py::object(json_object(*summary_)) : py::object(py::none());
  }

 private:
  py::dict linearized_run();

  std::atomic<bool> stop_{false};
  std::unique_ptr<app::Simulation> simulation_;
  std::optional<std::string> summary_;  ///< summary.json's text once finished
};

py::dict SimulationHandle::run() {
  if (locked([](const app::Simulation& s) { return s.is_linearized(); })) return linearized_run();
  StopOnInterrupt interrupt(stop_);
  std::exception_ptr failure;
  solving([&] {
    try {
      while (simulation().step()) {
      }
    } catch (const app::RunError&) {
      failure = std::current_exception();
    }
  });
  // A failed run ends as `catena run` ends it (summary.json "failed"), then raises.
  py::dict ended = finish();
  if (failure) std::rethrow_exception(failure);
  interrupt.hand_back();
  return ended;
}

py::dict SimulationHandle::finish() {
  if (!summary_) summary_ = rank_0s_summary(solving([&] { return simulation().finish(); }).summary);
  return json_object(*summary_);
}

py::dict SimulationHandle::linearized_run() {
  // A failure is raised with the message `catena run` prints, rank 0's on every rank, and printed
  // nowhere (Simulation::run_linearized).
  std::optional<app::RunError> failure;
  solving([&] {
    std::string message;
    try {
      static_cast<void>(simulation().run_linearized());
    } catch (const app::RunError& e) {
      failure = e;
      message = e.what();
    }
    // Rank 0 has written summary.json when it sends: every rank reads it afterwards.
    assembly::broadcast_text_from_root(message);
    if (failure && !message.empty()) failure = app::RunError(failure->exit_code(), message);
  });
  summary_ = read_summary(locked([](const app::Simulation& s) { return s.out(); }));
  if (failure) throw *failure;
  return summary_ ? json_object(*summary_) : py::dict();
}

app::SimulationOptions options_of(const std::filesystem::path& model, const std::optional<std::string>& text,
                                  const std::vector<std::string>& overrides,
                                  const std::optional<std::filesystem::path>& out, std::optional<int> output_every,
                                  std::optional<int> checkpoint_every,
                                  const std::optional<std::filesystem::path>& restart,
                                  const std::vector<std::string>& sensitivity, const std::vector<std::string>& gradient,
                                  bool quiet, int threads, std::shared_ptr<const io::Checkpoint> resume) {
  app::SimulationOptions o;
  o.run.model = model;
  o.run.model_text = text;
  o.run.overrides = overrides;
  o.run.out = out;
  o.write_files = out.has_value();
  o.run.output_every = output_every;
  o.run.checkpoint_every = checkpoint_every;
  o.run.restart = restart;
  o.run.sensitivity = sensitivity;
  o.run.gradient = gradient;
  o.run.quiet = quiet;
  o.run.threads = threads;
  o.resume = std::move(resume);
  return o;
}

}  // namespace

void bind_simulation(py::module_& module) {
  using Handle = SimulationHandle;
  using app::Simulation;
  using Checkpoint = std::shared_ptr<io::Checkpoint>;  // pybind11's holder: of a non-const type
  py::class_<io::Checkpoint, Checkpoint>(module, "Checkpoint",
                                         "A simulation's state to continue from (Simulation.checkpoint()), in "
                                         "memory: Model.simulate(resume=checkpoint).")
      .def_property_readonly("time", [](const io::Checkpoint& c) { return c.state.t; })
      .def_property_readonly("step_index", [](const io::Checkpoint& c) { return c.state.step; });
  py::class_<Handle>(module, "Simulation", R"(A run of a model, driven step by step (docs/python.md).

Made by Model.simulate(); every argument is catena run's option of the same name. Every call is
collective under MPI (every rank makes the same calls); results are rank 0's, on every rank.)")
      .def(py::init([](const std::filesystem::path& model, const std::optional<std::string>& text,
                       const std::vector<std::string>& overrides, const std::optional<std::filesystem::path>& out,
                       std::optional<int> output_every, std::optional<int> checkpoint_every,
                       const std::optional<std::filesystem::path>& restart,
                       const std::vector<std::string>& sensitivity, const std::vector<std::string>& gradient,
                       bool quiet, int threads, Checkpoint resume) {
             return std::make_unique<Handle>(options_of(model, text, overrides, out, output_every, checkpoint_every,
                                                        restart, sensitivity, gradient, quiet, threads,
                                                        std::move(resume)));
           }),
           py::arg("model"), py::kw_only(), py::arg("text") = py::none(), py::arg("overrides") = std::vector<std::string>(),
           py::arg("out") = py::none(), py::arg("output_every") = py::none(), py::arg("checkpoint_every") = py::none(),
           py::arg("restart") = py::none(), py::arg("sensitivity") = std::vector<std::string>(),
           py::arg("gradient") = std::vector<std::string>(), py::arg("quiet") = true, py::arg("threads") = 0,
           py::arg("resume") = py::none())
      .def("start", &Handle::start,
           "The state at t = 0 (consistent start, initial equilibrium) and its row; step, advance and run start "
           "by themselves.")
      .def("step", &Handle::step, "One nominal step; False when the run was complete already (nothing done).")
      .def("advance", &Handle::advance, py::arg("t"),
           "Steps until the first nominal step at or after t (or t_end); returns the steps taken.")
      .def("run", &Handle::run,
           "Steps to t_end and finishes; returns the summary (summary.json's content). Eigen and buckling "
           "analyses are run whole.")
      .def("finish", &Handle::finish,
           "Ends the run (the adjoint's sweep, summary.json when writing files); returns the summary.")
      .def_property_readonly("time", [](const Handle& h) { return h.locked(std::mem_fn(&Simulation::time)); })
      .def_property_readonly("step_index",
                             [](const Handle& h) { return h.locked(std::mem_fn(&Simulation::step_index)); },
                             "Nominal steps completed.")
      .def_property_readonly("nominal_steps",
                             [](const Handle& h) { return h.locked(std::mem_fn(&Simulation::nominal_steps)); })
      .def_property_readonly("complete", [](const Handle& h) { return h.locked(std::mem_fn(&Simulation::complete)); })
      .def_property_readonly("out",
                             [](const Handle& h) {
                               return h.locked([](const Simulation& s) {
                                 return s.out().empty() ? py::object(py::none()) : py::cast(s.out());
                               });
                             },
                             "The output directory; None for an in-memory run.")
      .def_property_readonly("sensors",
                             [](const Handle& h) {
                               return h.locked([](const Simulation& s) { return sensor_history(s.model(), s.history()); });
                             },
                             "Every row so far of sensors.csv: {'t': array, sensor name: array, ...}.")
      .def_property_readonly(
          "energy",
          [](const Handle& h) { return h.locked([](const Simulation& s) { return energy_history(s.history()); }); },
          "Every row so far of energy.csv: {'t': array, 'kinetic': array, ...}.")
      .def_property_readonly(
          "sensitivities",
          [](const Handle& h) {
            return h.locked([](const Simulation& s) {
              const std::vector<std::string> columns = s.sensitivity_columns();
              return columns.empty() ? py::object(py::none()) : py::object(sensitivity_history(columns, s.history()));
            });
          },
          "With sensitivity=[...]: every row so far of sensitivities.csv, {'t': array, 'sensor:p': array, ...}; "
          "else None.")
      .def("sensor_values",
           [](const Handle& h) {
             return h.locked([](const Simulation& s) {
               const std::vector<double> values = s.sensor_values();
               py::dict out;
               for (std::size_t i = 0; i < values.size(); ++i) out[py::str(s.model().sensors[i].name)] = values[i];
               return out;
             });
           },
           "Each sensor's value now: {name: value}.")
      .def("energy_now",
           [](const Handle& h) { return h.locked([](const Simulation& s) { return energy_now(s.energy()); }); },
           "The energy columns now: {'t': t, 'kinetic': ..., ...}.")
      .def("node",
           [](const Handle& h, const std::string& name) {
             return h.locked([&](const Simulation& s) {
               const std::optional<fem::NodeId> id = s.model().find_node(name);
               if (!id) throw py::key_error("no node '" + name + "' in model '" + s.model().name + "'");
               const auto i = static_cast<std::size_t>(id->index);
               const std::span<const fem::NodeState> states = s.nodes();
               return node_state(s.model().nodes[i], i < states.size() ? states[i] : s.model().initial_state[i]);
             });
           },
           py::arg("name"),
           "A node's state now (global frame, SI): position, displacement, velocity, orientation (quaternion x, y, "
           "z, w, as SciPy's Rotation.from_quat takes it), rotation (3x3), angular_velocity: NumPy arrays.")
      .def("set_input",
           [](Handle& h, const std::string& name, double value) {
             h.locked([&](Simulation& s) { s.set_input(name, value); });
           },
           py::arg("name"), py::arg("value"), "Sets a named input of the model (`inputs:`), held from the next step on.")
      .def(
          "checkpoint",
          [](const Handle& h) {
            return h.locked([](const Simulation& s) { return std::make_shared<io::Checkpoint>(s.checkpoint()); });
          },
          "The state to continue from, now: Model.simulate(resume=...) continues it bit for bit.")
      .def(
          "save_checkpoint",
          [](const Handle& h, const std::filesystem::path& file) {
            h.locked([&](const Simulation& s) { s.save_checkpoint(file); });
          },
          py::arg("file"), "Writes checkpoint() to a file that restart= (and catena run --restart) continues from.")
      .def_property_readonly(
          "statistics", [](const Handle& h) { return h.locked([](const Simulation& s) { return counters(s.statistics()); }); },
          "The counters summary.json reports, so far.")
      .def_property_readonly("summary", &Handle::summary, "The summary once finished (summary.json's content), else None.");
}

}  // namespace catena::python
