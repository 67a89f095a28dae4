// The simulation object (app/simulation.hpp) driven as a program drives it: stepped one nominal
// step at a time it gives the command line's rows bit for bit, in memory it writes nothing, it
// advances to the nominal step that reaches a time, a run finished early says so, and bad input
// is a RunError with the located message and `catena run`'s exit code.
#include "support/csv_table.hpp"
#include "support/in_memory_run.hpp"
#include "support/test_files.hpp"

#include "app/simulation.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace catena::app {
namespace {

namespace fs = std::filesystem;
using testing::in_memory;
using testing::ScratchDirectory;

std::string source(const std::string& rel) { return std::string(CATENA_SOURCE_DIR) + "/" + rel; }

/// chain15-driven cut to 40 steps, a row every 5 (joints, drives, reactions in its sensors).
io::RunOptions chain15_options() {
  io::RunOptions o;
  o.model = source("cases/chain15-driven/model.yaml");
  o.overrides = {"analysis.t_end=0.04", "analysis.output_every=5"};
  o.quiet = true;
  return o;
}

/// A CSV file's rows after the header as numbers, each field read back exactly (the files write
/// %.17g).
std::vector<std::vector<double>> numbers(const fs::path& file) {
  std::vector<std::vector<double>> rows;
  const std::vector<std::vector<std::string>> text = testing::read_csv(file);
  for (std::size_t r = 1; r < text.size(); ++r) {
    rows.emplace_back();
    for (const std::string& field : text[r]) rows.back().push_back(std::strtod(field.c_str(), nullptr));
  }
  return rows;
}

/// The command line's run of `run` into `dir`.
void run_command_line(const io::RunOptions& run, const fs::path& dir) {
  std::vector<std::string> args{"run", run.model.string(), "--out", dir.string(), "--quiet"};
  for (const std::string& o : run.overrides) args.insert(args.end(), {"--set", o});
  const testing::CliResult r = testing::run_cli(args);
  ASSERT_EQ(r.code, 0) << r.output;
}

TEST(Simulation, SteppedInMemoryEqualsTheCommandLinesFilesBitForBit) {
  const ScratchDirectory scratch;
  run_command_line(chain15_options(), scratch.path() / "cli");
  Simulation sim(in_memory(chain15_options()));
  sim.start();
  long steps = 0;
  while (sim.step()) ++steps;
  EXPECT_EQ(steps, 40);
  EXPECT_EQ(sim.step_index(), 40);
  EXPECT_TRUE(sim.complete());
  const Outcome outcome = sim.finish();
  EXPECT_EQ(outcome.exit_code, io::exit_ok);
  EXPECT_EQ(outcome.summary.status, "completed");

  const std::vector<std::vector<double>> energy = numbers(scratch.path() / "cli" / "energy.csv");
  const std::vector<std::vector<double>> sensors = numbers(scratch.path() / "cli" / "sensors.csv");
  const History& h = sim.history();
  ASSERT_EQ(h.t.size(), energy.size());
  ASSERT_EQ(h.t.size(), 9U);  // t = 0 and every 5 steps
  for (std::size_t r = 0; r < h.t.size(); ++r) {
    EXPECT_EQ(h.t[r], energy[r][0]) << "row " << r;
    for (std::size_t c = 0; c < h.energy[r].size(); ++c) EXPECT_EQ(h.energy[r][c], energy[r][c + 1]) << r << ", " << c;
    ASSERT_EQ(h.sensors[r].size() + 1, sensors[r].size());
    for (std::size_t c = 0; c < h.sensors[r].size(); ++c) EXPECT_EQ(h.sensors[r][c], sensors[r][c + 1]) << r << ", " << c;
  }
  // The state read between steps is the last row's.
  const std::vector<double> now = sim.sensor_values();
  for (std::size_t c = 0; c < now.size(); ++c) EXPECT_EQ(now[c], h.sensors.back()[c]);
}

TEST(Simulation, SensitivitiesInMemoryEqualTheCommandLinesFile) {
  const ScratchDirectory scratch;
  io::RunOptions run = chain15_options();
  run.overrides.push_back("analysis.t_end=0.01");
  std::vector<std::string> args{"run", run.model.string(), "--out", (scratch.path() / "cli").string(), "--quiet",
                                "--sensitivity", "m,g"};
  for (const std::string& o : run.overrides) args.insert(args.end(), {"--set", o});
  const testing::CliResult r = testing::run_cli(args);
  ASSERT_EQ(r.code, 0) << r.output;
  run.sensitivity = {"m", "g"};
  Simulation sim(in_memory(run));
  EXPECT_EQ(sim.run().exit_code, io::exit_ok);
  const std::vector<std::vector<std::string>> file = testing::read_csv(scratch.path() / "cli" / "sensitivities.csv");
  const std::vector<std::string> columns = sim.sensitivity_columns();
  ASSERT_EQ(file.front().size(), columns.size() + 1);
  for (std::size_t c = 0; c < columns.size(); ++c) EXPECT_EQ(file.front()[c + 1], columns[c]);
  const std::vector<std::vector<double>> rows = numbers(scratch.path() / "cli" / "sensitivities.csv");
  const History& h = sim.history();
  ASSERT_EQ(h.sensitivities.size(), rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k)
    EXPECT_EQ(h.sensitivities[k], std::vector<double>(rows[k].begin() + 1, rows[k].end())) << "row " << k;
}

TEST(Simulation, WithFilesWritesWhatTheCommandLineWrites) {
  const ScratchDirectory scratch;
  run_command_line(chain15_options(), scratch.path() / "cli");
  io::RunOptions run = chain15_options();
  run.out = scratch.path() / "sim";
  SimulationOptions options;
  options.run = run;
  Simulation sim(std::move(options));
  EXPECT_EQ(sim.run().exit_code, io::exit_ok);
  for (const char* file : {"energy.csv", "sensors.csv", "results.pvd"})
    EXPECT_EQ(testing::read_text(scratch.path() / "sim" / file), testing::read_text(scratch.path() / "cli" / file))
        << file;
  EXPECT_NE(testing::read_text(scratch.path() / "sim" / "summary.json").find("\"status\": \"completed\""),
            std::string::npos);
}

TEST(Simulation, InMemoryWritesNoFile) {
  const ScratchDirectory scratch;
  const fs::path here = fs::current_path();
  fs::current_path(scratch.path());  // where `catena run` would make out/<name>/
  {
    Simulation sim(in_memory(chain15_options()));
    const Outcome outcome = sim.run();
    EXPECT_EQ(outcome.exit_code, io::exit_ok);
    EXPECT_EQ(sim.history().t.size(), 9U);
  }
  fs::current_path(here);
  EXPECT_TRUE(fs::is_empty(scratch.path())) << fs::directory_iterator(scratch.path())->path();
}

TEST(Simulation, AdvanceToStopsAtTheNominalStepThatReachesTheTime) {
  Simulation sim(in_memory(chain15_options()));
  EXPECT_EQ(sim.advance_to(0.0105), 11);  // dt = 1e-3: step 11 is the first at or after 0.0105 s
  EXPECT_EQ(sim.step_index(), 11);
  EXPECT_NEAR(sim.time(), 0.011, 1e-15);
  EXPECT_EQ(sim.advance_to(0.011), 0);  // there already
  EXPECT_EQ(sim.advance_to(10.0), 29);  // no further than t_end
  EXPECT_TRUE(sim.complete());
  EXPECT_FALSE(sim.step());
}

TEST(Simulation, FinishedBeforeTheEndSaysSo) {
  Simulation sim(in_memory(chain15_options()));
  sim.advance_to(0.01);
  const Outcome outcome = sim.finish();
  EXPECT_EQ(outcome.exit_code, io::exit_ok);
  EXPECT_EQ(outcome.summary.status, "interrupted");
  EXPECT_NE(outcome.summary.message.find("finished by the program at t = 0.01"), std::string::npos)
      << outcome.summary.message;
  EXPECT_EQ(outcome.summary.counters.steps, 10);
}

TEST(Simulation, ResumedFromItsCheckpointContinuesBitForBit) {
  Simulation whole(in_memory(chain15_options()));
  while (whole.step()) {
  }
  Simulation first(in_memory(chain15_options()));
  first.advance_to(0.015);  // between two rows
  SimulationOptions resumed = in_memory(chain15_options());
  resumed.resume = std::make_shared<const io::Checkpoint>(first.checkpoint());
  Simulation second(std::move(resumed));
  while (second.step()) {
  }
  EXPECT_EQ(second.statistics().steps, whole.statistics().steps);
  const History& a = whole.history();
  const History& b = second.history();
  ASSERT_EQ(b.t.size(), 5U);  // rows at 0.02, ..., 0.04: the continuation only
  for (std::size_t r = 0; r < b.t.size(); ++r) {
    const std::size_t ra = a.t.size() - b.t.size() + r;
    EXPECT_EQ(b.t[r], a.t[ra]);
    EXPECT_EQ(b.energy[r], a.energy[ra]) << "row " << r;
    EXPECT_EQ(b.sensors[r], a.sensors[ra]) << "row " << r;
  }
}

TEST(Simulation, SavedCheckpointIsOneTheCommandLineContinues) {
  const ScratchDirectory scratch;
  run_command_line(chain15_options(), scratch.path() / "whole");
  Simulation sim(in_memory(chain15_options()));
  sim.advance_to(0.02);
  sim.save_checkpoint(scratch.path() / "at_0.02.ckpt");
  std::vector<std::string> args{"run", chain15_options().model.string(), "--out", (scratch.path() / "rest").string(),
                                "--quiet", "--restart", (scratch.path() / "at_0.02.ckpt").string()};
  for (const std::string& o : chain15_options().overrides) args.insert(args.end(), {"--set", o});
  const testing::CliResult r = testing::run_cli(args);
  ASSERT_EQ(r.code, 0) << r.output;
  const std::vector<std::vector<double>> whole = numbers(scratch.path() / "whole" / "sensors.csv");
  const std::vector<std::vector<double>> rest = numbers(scratch.path() / "rest" / "sensors.csv");
  ASSERT_EQ(rest.size(), 4U);  // 0.025 ... 0.04
  for (std::size_t r = 0; r < rest.size(); ++r) EXPECT_EQ(rest[r], whole[whole.size() - rest.size() + r]);
}

/// A 2 kg block on a slider pushed by the input F.
io::RunOptions pushed_block() {
  io::RunOptions run;
  run.model = testing::write_temp("simulation", "pushed.yaml",
                                  "name: pushed\n"
                                  "inputs: [{name: F, value: 0}]\n"
                                  "nodes: [{name: body, position: [0, 0, 0]}]\n"
                                  "rigid_bodies: [{name: block, node: body, mass: 2, inertia: [1, 1, 1]}]\n"
                                  "joints: [{name: slider, kind: prismatic, node: body, axis: [1, 0, 0],\n"
                                  "          laws: {z: {force: F}}}]\n"
                                  "analysis: {dt: 0.1, t_end: 1}\n"
                                  "sensors: [{name: v, node: body, quantity: velocity, component: x}]\n");
  run.quiet = true;
  return run;
}

TEST(Simulation, AnInputSetBetweenStepsIsHeldOverTheNextSteps) {
  // The midpoint rule integrates a force held over the steps exactly: v = F t_F / m after F acts
  // for t_F.
  Simulation sim(in_memory(pushed_block()));
  sim.advance_to(0.3);
  EXPECT_EQ(sim.sensor_values().at(0), 0.0);
  sim.set_input("F", 4.0);
  sim.advance_to(0.8);
  EXPECT_NEAR(sim.sensor_values().at(0), 4.0 * 0.5 / 2.0, 1e-12);
  sim.set_input("F", 0.0);
  sim.advance_to(1.0);
  EXPECT_NEAR(sim.sensor_values().at(0), 1.0, 1e-12);
  EXPECT_THROW(sim.set_input("G", 1.0), std::invalid_argument);
}

TEST(Simulation, ACheckpointKeepsTheInputsAProgramSet) {
  const ScratchDirectory scratch;
  Simulation first(in_memory(pushed_block()));
  first.advance_to(0.2);
  first.set_input("F", 4.0);
  first.save_checkpoint(scratch.path() / "pushed.ckpt");
  const io::Checkpoint read = io::read_checkpoint(scratch.path() / "pushed.ckpt");
  EXPECT_EQ(read.state.inputs, std::vector<double>{4.0});
  SimulationOptions resumed = in_memory(pushed_block());
  resumed.resume = std::make_shared<const io::Checkpoint>(read);
  Simulation second(std::move(resumed));
  second.advance_to(0.7);
  EXPECT_NEAR(second.sensor_values().at(0), 4.0 * 0.5 / 2.0, 1e-12);  // F held from t = 0.2 on
}

TEST(Simulation, BadInputIsARunErrorWithTheLocatedMessage) {
  const fs::path model = testing::write_temp("simulation", "bad.yaml",
                                             "name: bad\nnodes:\n  - {name: a, position: [0, 0, 0]}\n"
                                             "analysis: {dt: -1, t_end: 1}\n");
  io::RunOptions run;
  run.model = model;
  try {
    Simulation sim(in_memory(run));
    FAIL() << "accepted";
  } catch (const RunError& e) {
    EXPECT_EQ(e.exit_code(), io::exit_bad_input);
    EXPECT_EQ(std::string(e.what()).rfind(model.string() + ":", 0), 0U) << e.what();
    EXPECT_NE(std::string(e.what()).find("analysis.dt"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace catena::app
