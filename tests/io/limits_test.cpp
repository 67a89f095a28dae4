// Limits checked before work starts (issue 20): step counts that cannot be represented, model
// sizes projected while the model is read against the memory limit, parameters read in linear
// time, model files and checkpoints read with a size bound. Each is refused with exit 2 and the
// place of the count that caused it; the tests assert the codes and messages, not the times
// (measured in the commit messages and docs/model-format.md, "Limits").
#include "io/model/size_budget.hpp"
#include "io/model_reader.hpp"
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>

namespace {

namespace fs = std::filesystem;
using catena::io::InputError;
using catena::testing::CliResult;
using catena::testing::run_cli;
using catena::testing::ScratchDirectory;

std::string source(const std::string& rel) { return std::string(CATENA_SOURCE_DIR) + "/" + rel; }

fs::path write(const fs::path& file, const std::string& text) {
  std::ofstream(file) << text;
  return file;
}

/// One node with a mass; `analysis` is the analysis line (line 5 of the file).
std::string mass_model(const std::string& analysis) {
  return "name: limits\n"
         "nodes:\n"
         "  - {name: a, position: [0, 0, 0]}\n"
         "masses: [{node: a, mass: 1}]\n" +
         analysis + "\n";
}

/// Sets an environment variable for one test and restores it.
class Environment {
 public:
  Environment(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~Environment() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(Limits, EndTimesOfMoreStepsThanCanBeCountedAreRefusedByCheckAndRun) {
  const ScratchDirectory dir;
  for (const char* t_end : {"9.3e17", "1e308"}) {
    const fs::path model = write(dir.path() / "model.yaml", mass_model(std::string("analysis: {dt: 0.1, t_end: ") + t_end + "}"));
    const std::string at = model.string() + ":5:";
    const CliResult check = run_cli({"check", model.string()});
    EXPECT_EQ(check.code, 2) << check.output;
    EXPECT_NE(check.output.find(at), std::string::npos) << check.output;
    EXPECT_NE(check.output.find("expected an end time of at most 2^53"), std::string::npos) << check.output;
    const fs::path out = dir.path() / "out";
    const CliResult run = run_cli({"run", model.string(), "--out", out.string(), "--quiet"});
    EXPECT_EQ(run.code, 2) << run.output;
    EXPECT_NE(run.output.find(at), std::string::npos) << run.output;
    EXPECT_FALSE(fs::exists(out / "summary.json"));
  }
  // The same through --set, which names the override.
  const fs::path model = write(dir.path() / "model.yaml", mass_model("analysis: {dt: 0.1, t_end: 1}"));
  const CliResult set = run_cli({"check", model.string(), "--set", "analysis.t_end=9.3e17"});
  EXPECT_EQ(set.code, 2) << set.output;
  EXPECT_NE(set.output.find("9.3e17"), std::string::npos) << set.output;
  EXPECT_NE(set.output.find("at most 2^53"), std::string::npos) << set.output;
}

/// `check` and `run` of `text` exit 2 at `line` with the size estimate, and write nothing.
void expect_refused_for_size(const fs::path& dir, const std::string& text, int line, const std::string& count) {
  const fs::path model = write(dir / "model.yaml", text);
  for (const char* command : {"check", "run"}) {
    const fs::path out = dir / "out";
    const CliResult r = std::string(command) == "check"
                            ? run_cli({"check", model.string()})
                            : run_cli({"run", model.string(), "--out", out.string(), "--quiet"});
    EXPECT_EQ(r.code, 2) << command << ": " << r.output;
    EXPECT_NE(r.output.find(model.string() + ":" + std::to_string(line) + ":"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("the model would need about"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("unknowns"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(count), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("expected at most"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out / "summary.json"));
  }
}

TEST(Limits, AbsurdCountsAreRefusedAtTheirLineWithTheEstimate) {
  const ScratchDirectory dir;
  expect_refused_for_size(dir.path(),
                          "name: beam\n"
                          "nodes: [{name: a, position: [0, 0, 0]}, {name: b, position: [1, 0, 0]}]\n"
                          "beams:\n"
                          "  - {name: B, from: a, to: b, section: {EA: 1e7, GJ: 1e3, EIy: 1e3, EIz: 1e3, rhoA: 1, rhoJ: 0.01, rhoIy: 0.005, rhoIz: 0.005},\n"
                          "     elements: 1e9}\n"
                          "analysis: {dt: 0.1, t_end: 1}\n",
                          5, "with 1000000000 elements");
  expect_refused_for_size(dir.path(),
                          "name: chain\n"
                          "chains:\n"
                          "  - name: C\n"
                          "    bodies: 1e9\n"
                          "    from: [0, 0, 0]\n"
                          "    direction: [1, 0, 0]\n"
                          "    length: 1\n"
                          "    mass: 1\n"
                          "    inertia: [1, 1, 1]\n"
                          "    joint: {kind: revolute, axis: [0, 0, 1]}\n"
                          "analysis: {dt: 0.1, t_end: 1}\n",
                          4, "with 1000000000 bodies");
  // Nested repeats: each within the 100 000 repetitions allowed, their product refused at the
  // first item, with the repeats' lines.
  expect_refused_for_size(dir.path(),
                          "name: repeats\n"
                          "nodes:\n"
                          "  - repeat: {index: i, from: 1, to: 1e5}\n"
                          "    items:\n"
                          "      - repeat: {index: j, from: 1, to: 1e5}\n"
                          "        items: [{name: \"n{i}_{j}\", position: [i, j, 0]}]\n"
                          "analysis: {type: static, dt: 0.1, t_end: 1}\n",
                          6, "in 1e+10 copies (the repeats on lines 3 and 5)");
}

TEST(Limits, TheMemoryLimitIsOverridable) {
  const ScratchDirectory dir;
  const fs::path model = write(dir.path() / "model.yaml",
                               "name: beam\n"
                               "nodes: [{name: a, position: [0, 0, 0]}, {name: b, position: [1, 0, 0]}]\n"
                               "supports: [{node: a, dofs: all}]\n"
                               "beams:\n"
                               "  - {name: B, from: a, to: b, section: {EA: 1e7, GJ: 1e3, EIy: 1e3, EIz: 1e3, rhoA: 1, rhoJ: 0.01, rhoIy: 0.005, rhoIz: 0.005},\n"
                               "     elements: 2000}\n"
                               "analysis: {dt: 0.1, t_end: 1}\n");
  EXPECT_EQ(run_cli({"check", model.string()}).code, 0);
  {
    const Environment limit("CATENA_MEMORY_LIMIT", "1M");
    const CliResult r = run_cli({"check", model.string()});
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(model.string() + ":6:"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("with 2000 elements; expected at most 1 MiB (CATENA_MEMORY_LIMIT)"), std::string::npos)
        << r.output;
  }
  {
    const Environment limit("CATENA_MEMORY_LIMIT", "lots");
    const CliResult r = run_cli({"check", model.string()});
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("CATENA_MEMORY_LIMIT: expected a memory size"), std::string::npos) << r.output;
  }
}

TEST(Limits, MemorySizesAreReadWithBinaryUnits) {
  using catena::io::reader::parse_memory_size;
  EXPECT_EQ(parse_memory_size("8G"), 8.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(parse_memory_size("512m"), 512.0 * 1024 * 1024);
  EXPECT_EQ(parse_memory_size("1.5e9"), 1.5e9);
  EXPECT_EQ(parse_memory_size("2T"), 2.0 * 1024 * 1024 * 1024 * 1024);
  EXPECT_TRUE(std::isinf(*parse_memory_size("none")));
  for (const char* bad : {"", "G", "-1G", "0", "8X", "8 G", "nan", "inf"})
    EXPECT_FALSE(parse_memory_size(bad).has_value()) << bad;
}

TEST(Limits, ParametersThatUseOneAnotherAreReadInLinearTime) {
  // 20 000 parameters, each the one before plus 1 (45 s when every expression defined the whole
  // table; the time is in docs/model-format.md, "Limits").
  const ScratchDirectory dir;
  constexpr int n = 20000;
  std::string text = "name: parameters\nparameters:\n  p0: 1\n";
  for (int i = 1; i < n; ++i) text += "  p" + std::to_string(i) + ": p" + std::to_string(i - 1) + " + 1\n";
  text += "nodes: [{name: a, position: [p" + std::to_string(n - 1) + ", 0, 0]}]\n"
          "masses: [{node: a, mass: 1}]\n"
          "analysis: {dt: 0.1, t_end: 1}\n";
  const catena::fem::Model model = catena::io::read_model(write(dir.path() / "model.yaml", text));
  ASSERT_EQ(model.parameters.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(model.parameters.back().second, static_cast<double>(n));
  EXPECT_EQ(model.nodes.front().reference_position.x(), static_cast<double>(n));
}

TEST(Limits, ModelFilesAreRegularFilesOfBoundedSize) {
  const ScratchDirectory dir;
  // A FIFO without a writer: refused at once, not waited on.
  const fs::path fifo = dir.path() / "fifo.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    static_cast<void>(catena::io::read_model(fifo));
    ADD_FAILURE() << "a FIFO was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("expected a model file; found a device, FIFO or socket"), std::string::npos)
        << e.what();
  }
  // A file past the maximum (sparse: nothing is written) is refused by its size.
  const fs::path big = write(dir.path() / "big.yaml", "name: big\n");
  fs::resize_file(big, 65u * 1024u * 1024u);
  try {
    static_cast<void>(catena::io::read_model(big));
    ADD_FAILURE() << "a 65 MiB model was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("expected a model file of at most 64 MiB; found 65 MiB"), std::string::npos)
        << e.what();
  }
}

TEST(Limits, CheckpointsAreReadWithASizeBound) {
  const ScratchDirectory dir;
  const std::string model = source("cases/bathe-pendulum/model.yaml");
  const fs::path first = dir.path() / "first";
  ASSERT_EQ(run_cli({"run", model, "--out", first.string(), "--set", "analysis.t_end=1", "--checkpoint-every", "5",
                     "--quiet"})
                .code,
            0);
  const fs::path out = dir.path() / "out";
  const auto restart = [&](const fs::path& checkpoint) {
    return run_cli({"run", model, "--out", out.string(), "--set", "analysis.t_end=1", "--restart", checkpoint.string(),
                    "--quiet"});
  };
  // Not regular files: /dev/zero was read until the kernel killed the run (24 GB); a FIFO waits.
  const fs::path fifo = dir.path() / "fifo.ckpt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const fs::path& device : {fs::path("/dev/zero"), fifo}) {
    const CliResult r = restart(device);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(device.string() + ": expected a checkpoint file; found a device, FIFO or socket"),
              std::string::npos)
        << r.output;
  }
  // A count the file cannot hold: refused before anything is allocated for it.
  fs::path checkpoint;
  for (const auto& entry : fs::directory_iterator(first))
    if (entry.path().extension() == ".ckpt") checkpoint = entry.path();
  ASSERT_FALSE(checkpoint.empty());
  std::string text = catena::testing::read_text(checkpoint);
  const std::size_t at = text.find(" nodes ");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, text.find(' ', at + 7) - at, " nodes 1000000000000");
  const CliResult r = restart(write(dir.path() / "huge.ckpt", text));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("nodes 1000000000000: more than the file's"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out / "summary.json"));
}

}  // namespace

namespace {

TEST(Limits, WhatAnElementRefusesIsNamedWithItsLineByCheckAndRun) {
  // Issue 20: a beam at 1e200 m passed `check`, and `run` refused "beam collapsed to zero length"
  // (its length overflows) with no element and no line; a joint whose axis overflows said "joint
  // axes must be a rotation" with no place. Both now name the element and its line, and `check`
  // refuses what `run` refuses, with nothing written.
  const ScratchDirectory dir;
  const fs::path beam = write(dir.path() / "beam.yaml",
                              "name: far\n"
                              "nodes:\n"
                              "  - {name: a, position: [1e200, 0, 0]}\n"
                              "  - {name: b, position: [2e200, 0, 0]}\n"
                              "beams:\n"
                              "  - {name: bar, from: a, to: b, elements: 2,\n"
                              "     section: {EA: 1e6, GJ: 10, EIy: 10, EIz: 10, rhoA: 1, rhoJ: 0.1}}\n"
                              "supports: [{node: a, dofs: all}]\n"
                              "analysis: {dt: 0.01, t_end: 0.1}\n");
  for (const char* command : {"check", "run"}) {
    const CliResult r = run_cli({command, beam.string(), "--out", (dir.path() / "out").string()});
    EXPECT_EQ(r.code, 2) << command << ": " << r.output;
    EXPECT_NE(r.output.find("beam.yaml:6: beam element 'bar_1': beam collapsed to zero length"), std::string::npos)
        << command << ": " << r.output;
    EXPECT_FALSE(fs::exists(dir.path() / "out")) << command;
  }
  const fs::path joint = write(dir.path() / "joint.yaml",
                               "name: axis\n"
                               "nodes: [{name: b, position: [1, 0, 0]}]\n"
                               "rigid_bodies: [{name: body, node: b, mass: 1, inertia: [1, 1, 1]}]\n"
                               "joints:\n"
                               "  - {name: hinge, kind: revolute, node: b, at: [0, 0, 0], axis: [1e300, 1e300, 0]}\n"
                               "analysis: {dt: 0.01, t_end: 0.1}\n");
  const CliResult r = run_cli({"check", joint.string()});
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("joint.yaml:5:5: joints[0]: joint 'hinge': joint axes must be a rotation"), std::string::npos)
      << r.output;
}

}  // namespace
