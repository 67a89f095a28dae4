// The command line as users script it: exit codes, output files, bad input never clobbering
// earlier results, solver failure keeping what was written.
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

using Result = catena::testing::CliResult;
Result run(const std::string& args) { return catena::testing::run_cli(args); }

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("catena_cli_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
}

std::string source(const std::string& rel) { return std::string(CATENA_SOURCE_DIR) + "/" + rel; }

TEST(Cli, RunWritesEveryOutputFile) {
  const fs::path out = fresh_dir("run");
  const Result r = run("run " + source("cases/bathe-pendulum/model.yaml") + " --out " + out.string() +
                       " --set analysis.t_end=1 --quiet");
  ASSERT_EQ(r.code, 0) << r.output;
  for (const char* f : {"results.pvd", "results_00000.vtu", "results_00010.vtu", "energy.csv", "sensors.csv", "summary.json"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  std::ifstream summary(out / "summary.json");
  std::stringstream s;
  s << summary.rdbuf();
  EXPECT_NE(s.str().find("\"status\": \"completed\""), std::string::npos) << s.str();
  EXPECT_NE(s.str().find("\"symbolic_factorizations\": 1"), std::string::npos) << s.str();
}

TEST(Cli, BadInputExitsTwoAndKeepsEarlierResults) {
  const fs::path out = fresh_dir("bad");
  ASSERT_EQ(run("run " + source("cases/bathe-pendulum/model.yaml") + " --out " + out.string() +
                " --set analysis.t_end=0.5 --quiet").code, 0);
  const auto before = fs::last_write_time(out / "energy.csv");
  const Result r = run("run " + source("cases/bathe-pendulum/model.yaml") + " --out " + out.string() +
                       " --set analysis.dt=-1 --quiet");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("model.yaml:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("analysis.dt"), std::string::npos) << r.output;
  EXPECT_EQ(fs::last_write_time(out / "energy.csv"), before);
  for (const char* bad : {"bad_input/unknown_key_in_truss.yaml", "bad_input/malformed_yaml.yaml"}) {
    const fs::path file = source(std::string("tests/io/") + bad);
    if (!fs::exists(file)) continue;
    const Result b = run("check " + file.string());
    EXPECT_EQ(b.code, 2) << b.output;
    EXPECT_NE(b.output.find(file.filename().string() + ":"), std::string::npos) << b.output;
  }
  EXPECT_EQ(run("frobnicate x.yaml").code, 2);
  EXPECT_EQ(run("run /nonexistent/model.yaml").code, 2);
}

TEST(Cli, SolverFailureExitsThreeAndKeepsResults) {
  // Newton is allowed a single iteration, which can never pass the correction test (a second
  // iteration is needed to measure the correction's size after a non-trivial predictor): steps
  // are cut down to dt_min, then the run stops with exit 3, the failure named, and the files
  // written so far still valid.
  const fs::path out = fresh_dir("fail");
  const fs::path model = out.string() + ".yaml";
  fs::create_directories(model.parent_path());
  {
    std::ifstream in(source("cases/bathe-pendulum/model.yaml"));
    std::stringstream s;
    s << in.rdbuf();
    std::ofstream m(model);
    m << s.str() << "loads:\n  - {name: crush, node: bob, force: [0, \"t > 0.5 ? 1e12 : 0\", 0]}\n";
  }
  const Result r = run("run " + model.string() + " --out " + out.string() + " --set analysis.dt_min=1e-3 --set analysis.max_newton_iterations=1 --quiet");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("t = "), std::string::npos) << r.output;
  std::ifstream energy(out / "energy.csv");
  std::string line;
  int rows = 0;
  while (std::getline(energy, line)) ++rows;
  EXPECT_GE(rows, 2);  // header + the frame at t = 0
  std::ifstream summary(out / "summary.json");
  std::stringstream s;
  s << summary.rdbuf();
  EXPECT_NE(s.str().find("\"status\": \"failed\""), std::string::npos) << s.str();
}

TEST(Cli, HelpShowsLongRunOptionsAndExitCodes) {
  const Result r = run("--help");
  EXPECT_EQ(r.code, 0) << r.output;
  for (const char* text : {"--restart", "--checkpoint-every", "catena run model.yaml --restart", "143 SIGTERM"})
    EXPECT_NE(r.output.find(text), std::string::npos) << text << " in\n" << r.output;
  // --restart belongs to run only.
  EXPECT_EQ(run("check " + source("cases/bathe-pendulum/model.yaml") + " --restart x.ckpt").code, 2);
}

TEST(Cli, CheckPrintsUnknownsAndNonZeros) {
  const Result r = run("check " + source("cases/free-flying-chain/model.yaml"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("unknowns    15"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("non-zeros"), std::string::npos) << r.output;
}

}  // namespace
