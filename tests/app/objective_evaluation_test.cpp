// `catena optimize`'s evaluations (app/objective_evaluation.hpp) are in-memory simulations: the
// objective and its gradient are a Simulation run's, bit for bit, by the direct method and the
// adjoint; an evaluation writes nothing; a run that does not complete is the RunError with the
// exit code and message of the same run as a Simulation (as `catena run` reports it).
#include "support/in_memory_run.hpp"
#include "support/test_files.hpp"

#include "app/objective_evaluation.hpp"
#include "app/simulation.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace catena::app {
namespace {

namespace fs = std::filesystem;
using testing::in_memory;
using testing::ScratchDirectory;

/// Hou's torque-shaping problem (cases/slider-crank-design) to t = 0.25 s, its objective's
/// integrand and the torque's three coefficients.
io::RunOptions slider_crank_options() {
  io::RunOptions o;
  o.model = std::string(CATENA_SOURCE_DIR) + "/cases/slider-crank-design/model.yaml";
  o.overrides = {"analysis.t_end=0.25", "a1=-3"};
  o.quiet = true;
  return o;
}

/// summary.json's objective and objective_gradient of the in-memory Simulation run of `run`.
ObjectiveEvaluation simulation_run(const io::RunOptions& run) {
  Simulation simulation(in_memory(run));
  const Outcome outcome = simulation.run();
  EXPECT_EQ(outcome.exit_code, io::exit_ok) << outcome.summary.message;
  ObjectiveEvaluation e{outcome.summary.objective.value_or(-1.0), {}};
  for (const auto& [name, derivative] : outcome.summary.objective_gradient) e.gradient.push_back(derivative);
  return e;
}

/// `options`' evaluation with the working directory `scratch` (where a run would write
/// out/<name>/), which it leaves empty.
ObjectiveEvaluation evaluated_in(const fs::path& scratch, const io::RunOptions& options) {
  const fs::path here = fs::current_path();
  fs::current_path(scratch);
  const ObjectiveEvaluation e = evaluate_objective(options);
  fs::current_path(here);
  EXPECT_TRUE(fs::is_empty(scratch)) << fs::directory_iterator(scratch)->path();
  return e;
}

TEST(ObjectiveEvaluation, IsASimulationRunsObjectiveAndGradientBitForBitWritingNothing) {
  const ScratchDirectory scratch;
  for (const bool adjoint : {false, true}) {
    io::RunOptions options = slider_crank_options();
    (adjoint ? options.gradient : options.sensitivity) = {"a0", "a1", "a2"};
    const ObjectiveEvaluation evaluated = evaluated_in(scratch.path(), options);
    const ObjectiveEvaluation run = simulation_run(options);
    EXPECT_GT(evaluated.objective, 0.0);
    EXPECT_EQ(evaluated.objective, run.objective) << (adjoint ? "adjoint" : "direct");
    ASSERT_EQ(evaluated.gradient.size(), 3U);
    EXPECT_EQ(evaluated.gradient, run.gradient) << (adjoint ? "adjoint" : "direct");
    EXPECT_NE(evaluated.gradient[0], 0.0);
  }
}

/// A point mass pushed by Fx for 1 s with the objective x(1)^2, and a second force `extra`.
io::RunOptions pushed_mass_with(const std::string& extra) {
  io::RunOptions o;
  o.model = testing::write_temp("objective_evaluation", "pushed.yaml",
                                "name: pushed\n"
                                "parameters: {Fx: 1}\n"
                                "nodes: [{name: bob, position: [0, 0, 0]}]\n"
                                "supports: [{node: bob, dofs: [y, z]}]\n"
                                "masses: [{node: bob, mass: 2}]\n"
                                "loads: [{name: push, node: bob, force: [Fx, 0, 0]},\n"
                                "        {name: extra, node: bob, force: [\"" + extra + "\", 0, 0]}]\n"
                                "analysis: {dt: 0.1, t_end: 1, dt_min: 0.1, objective: {final: \"x^2\"}}\n"
                                "sensors: [{name: x, node: bob, quantity: position, component: x}]\n");
  o.sensitivity = {"Fx"};
  o.quiet = true;
  return o;
}

/// The RunError of `f`, or a test failure.
template <class F>
RunError run_error_of(F&& f) {
  try {
    f();
  } catch (const RunError& e) {
    return e;
  }
  ADD_FAILURE() << "no RunError";
  return RunError(io::exit_ok, "");
}

TEST(ObjectiveEvaluation, ARunThatDoesNotCompleteIsTheSimulationsRunError) {
  // Refused before the first step, as `catena run` refuses it: a law with a kink at the start.
  const io::RunOptions kink = pushed_mass_with("-sign(x)");
  const RunError refused = run_error_of([&] { (void)evaluate_objective(kink); });
  const RunError simulation_refused = run_error_of([&] { Simulation simulation(in_memory(kink)); });
  EXPECT_EQ(refused.exit_code(), io::exit_bad_input);
  EXPECT_EQ(std::string(refused.what()), simulation_refused.what());
  EXPECT_NE(std::string(refused.what()).find("has no derivative at x = 0"), std::string::npos) << refused.what();

  // A solver failure (a force that turns not-a-number at t = 0.6): summary.json's message.
  const io::RunOptions failing = pushed_mass_with("t > 0.5 ? sqrt(-1) : 0");
  const RunError failed = run_error_of([&] { (void)evaluate_objective(failing); });
  Simulation simulation(in_memory(failing));
  const Outcome outcome = simulation.run();
  EXPECT_EQ(failed.exit_code(), io::exit_solver_failure);
  EXPECT_EQ(outcome.exit_code, io::exit_solver_failure);
  EXPECT_EQ(std::string(failed.what()), outcome.summary.message);
  EXPECT_NE(outcome.summary.message.find("at t = 0.6"), std::string::npos) << outcome.summary.message;
}

}  // namespace
}  // namespace catena::app
