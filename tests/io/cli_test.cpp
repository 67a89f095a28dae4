// The command line as users script it: exit codes, output files, bad input never clobbering
// earlier results, solver failure keeping what was written.
#include "support/four_bar_model.hpp"
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

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
                       " --set analysis.t_end=1 --set analysis.linear_solver=klu --quiet");
  ASSERT_EQ(r.code, 0) << r.output;
  for (const char* f : {"results.pvd", "results_00000.vtu", "results_00010.vtu", "energy.csv", "sensors.csv", "summary.json"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  std::ifstream summary(out / "summary.json");
  std::stringstream s;
  s << summary.rdbuf();
  EXPECT_NE(s.str().find("\"status\": \"completed\""), std::string::npos) << s.str();
  // KLU logs its one analysis apart from its factorizations (SuperLU, the default, does not).
  EXPECT_NE(s.str().find("\"symbolic_factorizations\": 1"), std::string::npos) << s.str();
}

std::string file_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// One rank's default LU has no pivoting (solvers/saddle_point_ordering.hpp); when it meets a zero
// pivot (here every pivot counts as zero: -pc_factor_zeropivot) the run goes on with SuperLU,
// as a run with SuperLU from the start does, and says so in summary.json.
TEST(Cli, LuWithoutPivotingFallsBackToSuperLu) {
  const std::string model = source("cases/chain15-falling/model.yaml");
  const std::string common = " --set analysis.t_end=0.05 --quiet";
  const fs::path by_default = fresh_dir("lu_default"), fallback = fresh_dir("lu_fallback"),
                 superlu = fresh_dir("lu_superlu");
  Result r = run("run " + model + " --out " + by_default.string() + common);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(file_text(by_default / "summary.json").find("\"linear_solver\": \"petsc\""), std::string::npos);
  r = run("run " + model + " --out " + fallback.string() + common + " -- -pc_factor_zeropivot 1e300");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(file_text(fallback / "summary.json").find("\"linear_solver\": \"superlu\""), std::string::npos)
      << file_text(fallback / "summary.json");
  r = run("run " + model + " --out " + superlu.string() + common + " --set analysis.linear_solver=superlu");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(file_text(fallback / "sensors.csv"), file_text(superlu / "sensors.csv"));
  EXPECT_EQ(file_text(fallback / "energy.csv"), file_text(superlu / "energy.csv"));
}

/// Lines of a text file.
std::size_t count_lines(const fs::path& file) {
  std::ifstream in(file);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

/// The timestep attributes of results.pvd, in order.
std::vector<double> pvd_times(const fs::path& pvd) {
  std::ifstream in(pvd);
  std::stringstream s;
  s << in.rdbuf();
  const std::string text = s.str();
  std::vector<double> times;
  for (std::size_t at = text.find("timestep=\""); at != std::string::npos; at = text.find("timestep=\"", at + 1))
    times.push_back(std::strtod(text.c_str() + at + 10, nullptr));
  return times;
}

TEST(Cli, RowsEveryStepAndVtkFramesByStepsOrByTime) {
  // 1.05 s at dt = 0.1 s: 11 steps, the last one short. Rows every step (and t = 0).
  const std::string model = source("cases/bathe-pendulum/model.yaml");
  const std::string common = " --set analysis.t_end=1.05 --quiet";
  const fs::path by_steps = fresh_dir("vtk_every"), by_time = fresh_dir("vtk_dt"), both = fresh_dir("vtk_both");
  ASSERT_EQ(run("run " + model + " --out " + by_steps.string() + common + " --set output.vtk_every=4").code, 0);
  EXPECT_EQ(count_lines(by_steps / "energy.csv"), 1U + 12U);
  EXPECT_EQ(count_lines(by_steps / "sensors.csv"), 1U + 12U);
  // t = 0, steps 4 and 8, and the end.
  const std::vector<double> steps = pvd_times(by_steps / "results.pvd");
  ASSERT_EQ(steps.size(), 4U);
  EXPECT_DOUBLE_EQ(steps[1], 0.4);
  EXPECT_DOUBLE_EQ(steps[2], 0.8);
  EXPECT_DOUBLE_EQ(steps[3], 1.05);
  EXPECT_TRUE(fs::exists(by_steps / "results_00003.vtu"));
  EXPECT_FALSE(fs::exists(by_steps / "results_00004.vtu"));

  // By time: the first step reaching each multiple of 0.25 s (0.3, 0.5, 0.8, 1.0), and the end.
  ASSERT_EQ(run("run " + model + " --out " + by_time.string() + common + " --set output.dt=0.25").code, 0);
  EXPECT_EQ(count_lines(by_time / "energy.csv"), 1U + 12U);
  const std::vector<double> times = pvd_times(by_time / "results.pvd");
  const std::vector<double> expected{0.0, 0.3, 0.5, 0.8, 1.0, 1.05};
  ASSERT_EQ(times.size(), expected.size());
  for (std::size_t k = 0; k < times.size(); ++k) EXPECT_NEAR(times[k], expected[k], 1e-12) << k;

  // Either cadence, not both; the message names the key.
  const Result r = run("run " + model + " --out " + both.string() + common +
                       " --set output.dt=0.25 --set output.vtk_every=2");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("output.dt"), std::string::npos) << r.output;
  for (const fs::path& d : {by_steps, by_time, both}) fs::remove_all(d);
}

// Threads stamp ranges of elements that never write the same entry, and every sum is taken in
// the same order on any number of them (assembly/stamp_plan.hpp): the outputs are the same bits.
// The flexible pendulum's 48 beams, and a chain of 1 000 bars, whose Jacobian transport turns its
// nodes on the threads too (solvers/jacobian_transport.hpp).
TEST(Cli, TwoThreadsGiveTheOneThreadResultsBitForBit) {
  for (const auto& [model_file, span] : {std::pair{"bench/mbdyn/flexchain.yaml", "0.03"},
                                         std::pair{"bench/mbdyn/chain1000.yaml", "0.01"}}) {
    const std::string model = source(model_file);
    const std::string common = std::string(" --set analysis.t_end=") + span + " --quiet";
    const fs::path one = fresh_dir("threads_one"), two = fresh_dir("threads_two");
    ASSERT_EQ(run("run " + model + " --out " + one.string() + common + " --threads 1").code, 0) << model_file;
    const Result r = run("run " + model + " --out " + two.string() + common + " --threads 2");
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(file_text(one / "summary.json").find("\"threads\": 1,"), std::string::npos);
    EXPECT_NE(file_text(two / "summary.json").find("\"threads\": 2,"), std::string::npos) << model_file;
    for (const char* f : {"sensors.csv", "energy.csv"})
      EXPECT_EQ(file_text(one / f), file_text(two / f)) << model_file << ": " << f;
    for (const fs::path& d : {one, two}) fs::remove_all(d);
  }
  const fs::path out = fresh_dir("threads_zero");
  const Result bad = run("run " + source("bench/mbdyn/flexchain.yaml") + " --out " + out.string() + " --threads 0");
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--threads"), std::string::npos) << bad.output;
  EXPECT_FALSE(fs::exists(out));
}

// Issue 39: with a CPU-bound process on the second of two processors, chain15 took 15.7 s on the
// default two threads against 0.18 s on one (a thread the scheduler puts behind the other
// program holds every pass). The default threads now leave the processors other programs keep
// busy to them (assembly/free_processors.hpp): with every processor taken, one thread.
TEST(Cli, DefaultThreadsLeaveTheProcessorsOtherProgramsUse) {
  const unsigned processors = std::thread::hardware_concurrency();
  if (processors < 2) GTEST_SKIP() << "one processor: the default is one thread anyway";
  std::atomic<bool> busy{true};
  std::vector<std::thread> others;
  for (unsigned i = 0; i < processors; ++i)
    others.emplace_back([&busy] {
      while (busy.load(std::memory_order_relaxed)) {
      }
    });
  const fs::path out = fresh_dir("threads_busy");
  const Result r = run("run " + source("bench/mbdyn/flexchain.yaml") + " --out " + out.string() +
                       " --set analysis.t_end=0.03 --quiet");
  busy = false;
  for (std::thread& t : others) t.join();
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(file_text(out / "summary.json").find("\"threads\": 1,"), std::string::npos) << file_text(out / "summary.json");
  fs::remove_all(out);
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
  for (const char* text : {"--restart", "--checkpoint-every", "catena run model.yaml --restart", "143 SIGTERM",
                           "mpirun --allow-run-as-root -n 2 catena run"})
    EXPECT_NE(r.output.find(text), std::string::npos) << text << " in\n" << r.output;
  // Issue 39: Open MPI refuses root before Catena starts; info shows the form that works.
  const Result info = run("info");
  EXPECT_NE(info.output.find("mpirun -n N catena run"), std::string::npos) << info.output;
  EXPECT_EQ(info.output.find("--allow-run-as-root") != std::string::npos, ::geteuid() == 0) << info.output;
  // --restart belongs to run only.
  EXPECT_EQ(run("check " + source("cases/bathe-pendulum/model.yaml") + " --restart x.ckpt").code, 2);
}

// Issue 39: hwloc's GL component, which Open MPI's start loads, connected to X displays :0, :1, ...
// (a run ended with exit 1, "X connection to :0 broken", when an X server went away). Fake
// displays listen on X's abstract sockets; a run must never connect to one.
TEST(Cli, RunNeverConnectsToAnXDisplay) {
  std::vector<int> displays;
  for (int n = 0; n < 10; ++n) {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string name = "/tmp/.X11-unix/X" + std::to_string(n);  // after a leading NUL: abstract
    std::copy(name.begin(), name.end(), address.sun_path + 1);
    const auto length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
    if (fd >= 0 && ::bind(fd, reinterpret_cast<const sockaddr*>(&address), length) == 0 && ::listen(fd, 8) == 0)
      displays.push_back(fd);
    else if (fd >= 0)
      ::close(fd);  // a real X server holds this display
  }
  if (displays.empty()) GTEST_SKIP() << "every display :0 to :9 is taken";
  const fs::path out = fresh_dir("x_display");
  const pid_t pid = catena::testing::spawn_cli(
      {"run", source("cases/bathe-pendulum/model.yaml"), "--out", out.string(), "--set", "analysis.t_end=0.1", "--quiet"},
      fs::temp_directory_path() / ("catena_cli_x_display_" + std::to_string(::getpid()) + ".log"));
  int connections = 0, status = 0;
  pid_t ended = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while ((ended = ::waitpid(pid, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline) {
    for (const int fd : displays)
      for (int client; (client = ::accept(fd, nullptr, nullptr)) >= 0;) {
        ++connections;
        ::close(client);  // Xlib reads the end of the connection as a display that is not there
      }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  for (const int fd : displays) ::close(fd);
  if (ended != pid) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    FAIL() << "the run did not end within 120 s";
  }
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(connections, 0) << "connections to the fake X displays";
  fs::remove_all(out);
}

TEST(Cli, CheckPrintsUnknownsAndNonZeros) {
  const Result r = run("check " + source("cases/free-flying-chain/model.yaml"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("unknowns    15"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("non-zeros"), std::string::npos) << r.output;
}

TEST(Cli, CheckTestsAModelsJointsForRedundantConstraints) {
  // A planar four-bar of revolute joints in 3D is over-constrained three times: `check` and `run`
  // refuse it (exit 2) naming the reactions; with `planar: xy` it is valid, and says so.
  const std::string four_bar = catena::testing::four_bar_model();
  const fs::path dir = fresh_dir("check_redundancy");
  fs::create_directories(dir);
  std::ofstream(dir / "spatial.yaml") << four_bar;
  std::ofstream(dir / "planar.yaml") << four_bar << "planar: xy\n";
  const Result spatial = run("check " + (dir / "spatial.yaml").string());
  EXPECT_EQ(spatial.code, 2) << spatial.output;
  EXPECT_NE(spatial.output.find("3 unknown(s) cannot be determined"), std::string::npos) << spatial.output;
  EXPECT_NE(spatial.output.find("joint '"), std::string::npos) << spatial.output;
  EXPECT_NE(spatial.output.find("spatial.yaml:1"), std::string::npos) << spatial.output;  // a joint's line
  EXPECT_EQ(spatial.output.find("is valid"), std::string::npos) << spatial.output;
  // `run` refuses it too, as bad input (exit 2), naming the file.
  const Result refused = run("run " + (dir / "spatial.yaml").string() + " --out " + (dir / "out").string() + " --quiet");
  EXPECT_EQ(refused.code, 2) << refused.output;
  EXPECT_NE(refused.output.find("spatial.yaml: the Newton matrix is singular"), std::string::npos) << refused.output;
  const Result planar = run("check " + (dir / "planar.yaml").string());
  EXPECT_EQ(planar.code, 0) << planar.output;
  EXPECT_NE(planar.output.find("constraints independent"), std::string::npos) << planar.output;
}

/// The output of a shell command (stdout and stderr) and its exit code.
Result shell(const std::string& command) {
  const fs::path log = fresh_dir("shell") += ".log";
  const int status = std::system((command + " > '" + log.string() + "' 2>&1").c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(log);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

TEST(Cli, CheckAndInfoLoadNeitherPetscNorMpiNorVtk) {
  // The front end links none of them (io/main.cpp): its start is not theirs.
  const Result libraries = shell(std::string("ldd ") + CATENA_EXECUTABLE);
  ASSERT_EQ(libraries.code, 0) << libraries.output;
  for (const char* heavy : {"libpetsc", "libslepc", "libmpi", "libvtk"})
    EXPECT_EQ(libraries.output.find(heavy), std::string::npos) << heavy << " in\n" << libraries.output;
  EXPECT_NE(libraries.output.find("libyaml-cpp"), std::string::npos) << libraries.output;
  const Result info = run("info");
  EXPECT_EQ(info.code, 0) << info.output;
  EXPECT_NE(info.output.find("PETSc           3."), std::string::npos) << info.output;
}

TEST(Cli, RunWithoutItsSolverSaysWhatIsMissing) {
  const fs::path dir = fresh_dir("alone");
  fs::create_directories(dir);
  fs::copy_file(CATENA_EXECUTABLE, dir / "catena");
  const Result r = shell((dir / "catena").string() + " run " + source("cases/bathe-pendulum/model.yaml") + " --out " +
                         (dir / "out").string());
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find((dir / "catena-run").string() + ": No such file"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
  // check needs no solver.
  EXPECT_EQ(shell((dir / "catena").string() + " check " + source("cases/bathe-pendulum/model.yaml")).code, 0);
  fs::remove_all(dir);
}

TEST(Cli, RunWithoutItsVtkModuleSaysWhatIsMissing) {
  // catena-run loads VTK from libcatena_vtk.so next to it (io/vtk_module.hpp): without it the run
  // stops before its first step, naming the module and where it looked.
  const fs::path dir = fresh_dir("no_vtk");
  fs::create_directories(dir);
  const fs::path build = fs::path(CATENA_EXECUTABLE).parent_path();
  fs::copy_file(CATENA_EXECUTABLE, dir / "catena");
  fs::copy_file(build / "catena-run", dir / "catena-run");
  const Result libraries = shell("ldd " + (dir / "catena-run").string());
  EXPECT_EQ(libraries.output.find("libvtk"), std::string::npos) << libraries.output;
  const Result r = shell((dir / "catena").string() + " run " + source("cases/bathe-pendulum/model.yaml") + " --out " +
                         (dir / "out").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("VTK output needs Catena's VTK module, libcatena_vtk.so"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find((dir / "libcatena_vtk.so").string() + ": "), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out" / "energy.csv"));
  // Named by CATENA_VTK_MODULE, the build's module serves.
  const Result named = shell("CATENA_VTK_MODULE=" + (build / "libcatena_vtk.so").string() + " " +
                             (dir / "catena").string() + " run " + source("cases/bathe-pendulum/model.yaml") +
                             " --out " + (dir / "out").string() + " --set analysis.t_end=0.01 --quiet");
  EXPECT_EQ(named.code, 0) << named.output;
  EXPECT_TRUE(fs::exists(dir / "out" / "results_00000.vtu"));
  fs::remove_all(dir);
}

}  // namespace
