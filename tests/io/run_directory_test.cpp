// The output directory is the run's (issue 20): one run at a time holds it (a second is refused
// with exit 2 naming the holder, a dead holder's lock is taken over), a fresh run leaves nothing
// of an earlier one's frames and checkpoints, no file is written through a symbolic link planted
// there, and a file that cannot be written is an output failure (exit 4) with its path, not a
// solver failure.
#include "io/commands.hpp"
#include "io/output_directory.hpp"
#include "io/run_directory.hpp"
#include "io/vtk_writer.hpp"
#include "support/small_disk.hpp"
#include "support/test_files.hpp"
#include "support/vtu_reader.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
using catena::io::RunDirectoryLock;
using catena::testing::read_text;
using catena::testing::run_cli;
using catena::testing::ScratchDirectory;
using catena::testing::SmallDisk;
using catena::testing::spawn_cli;
using catena::testing::summary_number;
using catena::testing::summary_value;

std::string source(const std::string& rel) { return std::string(CATENA_SOURCE_DIR) + "/" + rel; }

/// `catena run` of the Bathe pendulum (frames every 0.1 s) into `out`, quietly.
catena::testing::CliResult run_pendulum(const fs::path& out, const std::string& t_end,
                                        const std::string& extra = "") {
  return run_cli("run " + source("cases/bathe-pendulum/model.yaml") + " --out '" + out.string() +
                 "' --set analysis.t_end=" + t_end + " --quiet" + extra);
}

/// Whether `file` is one JSON document (Python's reader, as users' scripts read it).
bool valid_json(const fs::path& file) {
  const std::string command = "python3 -c 'import json, sys; json.load(open(sys.argv[1]))' '" + file.string() + "'";
  return std::system(command.c_str()) == 0;
}

/// Waits up to 60 s for `file` to hold text (a lock file its holder has written).
bool wait_for_content(const fs::path& file) {
  for (int i = 0; i < 600; ++i) {
    if (!read_text(file).empty()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

TEST(RunDirectory, CatenaNamesAreTheOnlyOnesClearedAsEarlierOutputs) {
  using catena::io::is_earlier_run_output;
  for (const char* name : {"results_00000.vtu", "results_00012.pvtu", "results_00012_1.vtu", "scene_00003.vtu",
                           "checkpoint_000120.ckpt", "results.pvd", "scene.pvd", "sensitivities.csv", "mode_sensitivities.csv",
                           "buckling_sensitivities.csv", "results.pvd.tmp",
                           "summary.json.tmp", "energy.csv.tmp", "results_00004.vtu.tmp", "checkpoint_000010.ckpt.tmp"})
    EXPECT_TRUE(is_earlier_run_output(name)) << name;
  for (const char* name : {"results_best.vtu", "results_.vtu", "results_0001_.vtu", "results_1_2_3.vtu", "notes.txt",
                           "energy.csv", "sensors.csv", "summary.json", "model.yaml.tmp", "checkpoint_x.ckpt",
                           ".catena.lock", "my_results_00001.vtu", "scene_00001.vtu.bak"})
    EXPECT_FALSE(is_earlier_run_output(name)) << name;
}

TEST(RunDirectory, ALockHeldByThisProcessRefusesASecondLockAndIsReleasedWithoutTrace) {
  const ScratchDirectory scratch;
  const fs::path out = scratch.path() / "new" / "out";
  {
    const RunDirectoryLock held(out);
    ASSERT_TRUE(fs::is_regular_file(out / RunDirectoryLock::file_name));
    EXPECT_EQ(read_text(out / RunDirectoryLock::file_name).rfind("pid " + std::to_string(::getpid()) + " host ", 0), 0u)
        << read_text(out / RunDirectoryLock::file_name);
    try {
      // flock locks belong to the open file description: a second open in this process conflicts.
      const RunDirectoryLock second(out);
      ADD_FAILURE() << "locked twice";
    } catch (const catena::io::DirectoryInUse& e) {
      EXPECT_NE(std::string(e.what()).find("in use by pid " + std::to_string(::getpid())), std::string::npos)
          << e.what();
    }
  }
  // Released: the lock file is gone, and so is the directory it created for a run that wrote nothing.
  EXPECT_FALSE(fs::exists(out));
  EXPECT_TRUE(fs::exists(out.parent_path()));  // a parent it created is left alone
}

TEST(RunDirectory, ASecondRunIntoAHeldDirectoryIsRefusedWithExit2NamingTheHolder) {
  const ScratchDirectory scratch;
  const fs::path out = scratch.path() / "out";
  const RunDirectoryLock held(out);  // as a run of catena holds it
  const auto r = run_pendulum(out, "1");
  EXPECT_EQ(r.code, catena::io::exit_bad_input) << r.output;
  EXPECT_NE(r.output.find(out.string() + ": the output directory is in use by pid " + std::to_string(::getpid())),
            std::string::npos)
      << r.output;
  // The holder's command line, from /proc: this test program.
  EXPECT_NE(r.output.find("catena_system_tests"), std::string::npos) << r.output;
  // Nothing written by the refused run.
  EXPECT_FALSE(fs::exists(out / "energy.csv"));
  EXPECT_FALSE(fs::exists(out / "summary.json"));
}

TEST(RunDirectory, TwoConcurrentRunsIntoOneDirectoryGiveOneRunAndOneRefusal) {
  const ScratchDirectory scratch;
  const fs::path out = scratch.path() / "out";
  // The first run, long enough (5 000 steps of the falling 15-bar chain, 2 s) for the second to start.
  const std::string first_command = std::string(CATENA_EXECUTABLE) + " run " +
                                    source("cases/chain15-falling/model.yaml") + " --out '" + out.string() +
                                    "' --set analysis.t_end=5 --output-every 500 --quiet > '" + (scratch.path() / "first.log").string() +
                                    "' 2>&1";
  const pid_t first = ::fork();
  ASSERT_GE(first, 0);
  if (first == 0) {
    ::execl("/bin/sh", "sh", "-c", ("exec " + first_command).c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ASSERT_TRUE(wait_for_content(out / RunDirectoryLock::file_name)) << read_text(scratch.path() / "first.log");
  const auto second = run_pendulum(out, "1");
  int status = 0;
  ASSERT_EQ(::waitpid(first, &status, 0), first);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << read_text(scratch.path() / "first.log");
  EXPECT_EQ(second.code, catena::io::exit_bad_input) << second.output;
  // Named by its process id (the shell exec'd catena, which exec'd the solver: one process).
  EXPECT_NE(second.output.find("in use by pid " + std::to_string(first)), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("chain15-falling/model.yaml"), std::string::npos) << second.output;
  // The directory holds the first run's results only, complete, and no lock.
  const std::string summary = read_text(out / "summary.json");
  EXPECT_NE(summary.find("\"status\": \"completed\""), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"model_name\": \"chain15-falling\""), std::string::npos) << summary;
  EXPECT_EQ(summary_number(summary, "t_reached"), 5.0) << summary;
  EXPECT_FALSE(fs::exists(out / RunDirectoryLock::file_name));
}

TEST(RunDirectory, TheLockOfAKilledRunIsTakenOver) {
  const ScratchDirectory scratch;
  const fs::path out = scratch.path() / "out";
  fs::create_directories(out);
  const fs::path lock_file = out / RunDirectoryLock::file_name;
  // A holder killed with SIGKILL leaves its lock file, with its process id in it.
  const pid_t holder = ::fork();
  ASSERT_GE(holder, 0);
  if (holder == 0) {
    const int fd = ::open(lock_file.c_str(), O_RDWR | O_CREAT, 0666);
    if (fd < 0 || ::flock(fd, LOCK_EX) != 0) ::_exit(1);
    const std::string text = "pid " + std::to_string(::getpid()) + " host here\n";
    if (::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) ::_exit(1);
    ::pause();
    ::_exit(0);
  }
  ASSERT_TRUE(wait_for_content(lock_file));
  // While it lives the directory is refused ...
  EXPECT_EQ(run_pendulum(out, "0.2").code, catena::io::exit_bad_input);
  ::kill(holder, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(holder, &status, 0), holder);
  ASSERT_TRUE(fs::exists(lock_file));  // stale: the file stays, the kernel released its lock
  // ... once it is dead the lock is taken over silently.
  const auto r = run_pendulum(out, "0.2");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output, "");
  EXPECT_TRUE(fs::exists(out / "results_00002.vtu"));
  EXPECT_FALSE(fs::exists(lock_file));
}

TEST(RunDirectory, AShorterReRunLeavesNoFrameOrCheckpointOfTheEarlierRun) {
  const ScratchDirectory scratch;
  const fs::path out = scratch.path() / "out";
  ASSERT_EQ(run_pendulum(out, "1", " --checkpoint-every 2").code, 0);
  ASSERT_TRUE(fs::exists(out / "results_00010.vtu"));
  ASSERT_TRUE(fs::exists(out / "checkpoint_000008.ckpt"));
  // The user's own files, also with names close to Catena's, and a leftover temporary.
  std::ofstream(out / "notes.txt") << "mine\n";
  std::ofstream(out / "results_best.vtu") << "mine\n";
  std::ofstream(out / "results.pvd.tmp") << "partial";

  const auto r = run_pendulum(out, "0.5");
  ASSERT_EQ(r.code, 0) << r.output;
  for (int frame = 0; frame <= 5; ++frame)
    EXPECT_TRUE(fs::exists(out / catena::io::VtkWriter::frame_file_name(frame))) << frame;
  for (int frame = 6; frame <= 10; ++frame)
    EXPECT_FALSE(fs::exists(out / catena::io::VtkWriter::frame_file_name(frame))) << frame;
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    EXPECT_FALSE(name.starts_with("checkpoint_")) << name;  // this run writes none
    EXPECT_FALSE(name.ends_with(".tmp")) << name;
  }
  EXPECT_EQ(read_text(out / "notes.txt"), "mine\n");
  EXPECT_EQ(read_text(out / "results_best.vtu"), "mine\n");
  // The index and the CSV files are this run's: six frames, six rows.
  const std::string pvd = read_text(out / "results.pvd");
  EXPECT_NE(pvd.find("results_00005.vtu"), std::string::npos);
  EXPECT_EQ(pvd.find("results_00006.vtu"), std::string::npos);
  const std::string energy = read_text(out / "energy.csv");
  EXPECT_EQ(std::count(energy.begin(), energy.end(), '\n'), 7);
}

TEST(RunDirectory, PlantedSymbolicLinksAreReplacedAndTheirTargetsUntouched) {
  const ScratchDirectory scratch;
  const fs::path out = scratch.path() / "out";
  const fs::path outside = scratch.path() / "outside";
  fs::create_directories(out);
  fs::create_directories(outside);
  // Links under the names of a CSV file (opened once, written row by row), a frame, the summary
  // and a temporary.
  for (const char* name : {"energy.csv", "results_00001.vtu", "summary.json", "results.pvd.tmp"}) {
    std::ofstream(outside / name) << "precious " << name << '\n';
    fs::create_symlink(outside / name, out / name);
  }
  const auto r = run_pendulum(out, "0.3");
  ASSERT_EQ(r.code, 0) << r.output;
  for (const char* name : {"energy.csv", "results_00001.vtu", "summary.json"}) {
    EXPECT_EQ(read_text(outside / name), std::string("precious ") + name + '\n') << name;
    EXPECT_FALSE(fs::is_symlink(out / name)) << name;
    EXPECT_TRUE(fs::is_regular_file(out / name)) << name;
  }
  EXPECT_EQ(read_text(outside / "results.pvd.tmp"), "precious results.pvd.tmp\n");
  EXPECT_TRUE(read_text(out / "energy.csv").starts_with("t,kinetic,"));
  EXPECT_FALSE(fs::exists(out / "results.pvd.tmp"));

  // Written one by one (a link planted during a run): the same.
  const fs::path link = out / "summary.json";
  fs::remove(link);
  fs::create_symlink(outside / "summary.json", link);
  catena::io::replace_file_atomically(link, "{}\n");
  EXPECT_EQ(read_text(outside / "summary.json"), "precious summary.json\n");
  EXPECT_EQ(read_text(link), "{}\n");
  fs::create_symlink(outside / "energy.csv", out / "results_00009.vtu");
  catena::io::write_new_file(out / "results_00009.vtu", "frame\n");
  EXPECT_EQ(read_text(outside / "energy.csv"), "precious energy.csv\n");
  EXPECT_FALSE(fs::is_symlink(out / "results_00009.vtu"));
}

TEST(RunDirectory, ADirectoryWhereAFrameShouldGoIsAnOutputFailureWithThePath) {
  const ScratchDirectory scratch;
  const fs::path out = scratch.path() / "out";
  const fs::path in_the_way = out / "results_00003.vtu";
  fs::create_directories(in_the_way / "inside");
  const auto r = run_pendulum(out, "1");
  EXPECT_EQ(r.code, catena::io::exit_output_failure) << r.output;
  EXPECT_NE(r.output.find("output failed: " + in_the_way.string()), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Is a directory"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(in_the_way / "inside"));  // not removed: not Catena's
  // summary.json says how far the run got: frame 3 was due at t = 0.3 s after 3 steps of 0.1 s.
  const std::string summary = read_text(out / "summary.json");
  EXPECT_NE(summary.find("\"status\": \"failed\""), std::string::npos) << summary;
  EXPECT_NE(summary.find("output failed: "), std::string::npos) << summary;
  EXPECT_EQ(summary_number(summary, "steps"), 3.0) << summary;
  EXPECT_NEAR(summary_number(summary, "t_reached"), 0.3, 1e-12) << summary;
  // The frames before it are complete and listed.
  EXPECT_TRUE(fs::exists(out / "results_00002.vtu"));
  EXPECT_NE(read_text(out / "results.pvd").find("results_00002.vtu"), std::string::npos);
}

TEST(RunDirectory, ADiskFillingMidRunLeavesOnlyCompleteReadableFilesAndTheSummary) {
  // Issue 20: a full disk aborted the run (SIGABRT, exit 134), left a truncated frame under its
  // final name, .tmp files, and no summary.json. A disk of 300 kB holds about 22 of the
  // pendulum's frames with their scenes: the run stops with an output failure there.
  const ScratchDirectory scratch;
  const SmallDisk disk(scratch.path() / "disk", "300k");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.why_not() << ")";
  const fs::path out = disk.path() / "out";
  const auto r = run_pendulum(out, "1000");
  EXPECT_EQ(r.code, catena::io::exit_output_failure) << r.output;
  EXPECT_NE(r.output.find("No space left on device"), std::string::npos) << r.output;

  // No temporary left, every frame readable (VTK reports no error).
  std::vector<fs::path> frames;
  for (const fs::directory_entry& entry : fs::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    EXPECT_FALSE(name.ends_with(".tmp")) << name;
    if (name.ends_with(".vtu")) frames.push_back(entry.path());
  }
  EXPECT_GT(frames.size(), 10u);
  for (const fs::path& frame : frames) (void)catena::testing::read_vtu(frame);
  // The indexes are whole and list only frames that are there (as many as their last rewrite saw:
  // at most twice a second while frames come, and at the end when the disk lets it).
  for (const char* index : {"results.pvd", "scene.pvd"}) {
    const std::string text = read_text(out / index);
    EXPECT_TRUE(text.ends_with("</VTKFile>\n")) << index;
    const std::regex listed("file=\"([^\"]+)\"");
    int entries = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), listed); it != std::sregex_iterator(); ++it, ++entries)
      EXPECT_TRUE(fs::exists(out / (*it)[1].str())) << index << " lists " << (*it)[1].str();
    EXPECT_GE(entries, 1) << index;
  }
  // The CSV files hold whole rows, as many in each; the last row's time is within the run.
  double last_t = -1.0;
  std::size_t rows = 0;
  for (const char* csv : {"energy.csv", "sensors.csv"}) {
    const std::string text = read_text(out / csv);
    ASSERT_TRUE(text.ends_with('\n')) << csv;
    std::istringstream lines(text);
    std::string header, line;
    std::getline(lines, header);
    const auto columns = std::count(header.begin(), header.end(), ',');
    std::size_t n = 0;
    for (; std::getline(lines, line); ++n) {
      EXPECT_EQ(std::count(line.begin(), line.end(), ','), columns) << csv << " row " << n;
      last_t = std::stod(line.substr(0, line.find(',')));
    }
    if (rows != 0) {
      EXPECT_EQ(n, rows) << csv;
    }
    rows = n;
  }
  EXPECT_GT(rows, 10u);
  // summary.json: written in the room its running version kept, with how far the run got.
  const fs::path summary_file = out / "summary.json";
  ASSERT_TRUE(fs::exists(summary_file));
  EXPECT_TRUE(valid_json(summary_file));
  const std::string summary = read_text(summary_file);
  EXPECT_EQ(summary_value(summary, "status"), "failed") << summary;
  EXPECT_NE(summary_value(summary, "message").find("No space left on device"), std::string::npos) << summary;
  EXPECT_GE(summary_number(summary, "steps"), static_cast<double>(rows - 1)) << summary;
  EXPECT_GE(summary_number(summary, "t_reached"), last_t - 1e-12) << summary;
}

TEST(RunDirectory, ARunKilledMidwayLeavesItsOwnRunningSummaryNotTheEarlierRunsOne) {
  // A run killed by SIGKILL cannot write its summary: the directory showed the earlier run's
  // "completed" beside this run's files. Now summary.json says "running" as soon as the run
  // writes, with the process that ran.
  const ScratchDirectory scratch;
  const fs::path out = scratch.path() / "out";
  ASSERT_EQ(run_pendulum(out, "0.2").code, 0);
  ASSERT_EQ(summary_value(read_text(out / "summary.json"), "status"), "completed");
  const pid_t pid = spawn_cli({"run", source("cases/bathe-pendulum/model.yaml"), "--out", out.string(), "--quiet",
                               "--set", "analysis.t_end=1e6", "--set", "analysis.output_every=1000"},
                              scratch.path() / "run.log");
  ASSERT_GT(pid, 0);
  std::string status;
  for (int i = 0; i < 600 && status != "running"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    status = summary_value(read_text(out / "summary.json"), "status");
  }
  ::kill(pid, SIGKILL);
  int wait_status = 0;
  ASSERT_EQ(::waitpid(pid, &wait_status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(wait_status)) << read_text(scratch.path() / "run.log");
  const std::string summary = read_text(out / "summary.json");
  EXPECT_EQ(summary_value(summary, "status"), "running") << summary;
  EXPECT_NE(summary_value(summary, "message").find("pid " + std::to_string(pid) + " on host "), std::string::npos)
      << summary;
  EXPECT_TRUE(valid_json(out / "summary.json"));
}

}  // namespace
