// Long runs: checkpoints, `catena run --restart`, SIGTERM. A run continued from a checkpoint must
// give the results of an uninterrupted one (energy.csv, sensors.csv, the VTK frames, the counters
// of summary.json), whether it continues in its own directory or writes the continuation to a new
// one; a checkpoint of another model is refused; SIGTERM leaves readable files, exit 143 and a
// checkpoint to continue from.
#include "support/test_files.hpp"
#include "support/vtu_reader.hpp"

#include "io/checkpoint.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace catena::io {
namespace {

namespace fs = std::filesystem;

std::string source(const std::string& rel) { return std::string(CATENA_SOURCE_DIR) + "/" + rel; }

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("catena_restart_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
}

using Result = testing::CliResult;
Result run(const std::vector<std::string>& args) { return testing::run_cli(args); }

using testing::read_text;
using testing::summary_value;
using testing::read_vtu;
using testing::spawn_cli;

/// A CSV file as numbers: every row after the header, each field parsed in full (a field that is
/// not a number fails the test).
std::vector<std::vector<double>> read_csv(const fs::path& file) {
  std::ifstream in(file);
  EXPECT_TRUE(in) << file;
  std::string line;
  std::getline(in, line);  // header
  const auto columns = static_cast<std::size_t>(std::count(line.begin(), line.end(), ',') + 1);
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ',')) {
      char* end = nullptr;
      row.push_back(std::strtod(field.c_str(), &end));
      EXPECT_EQ(*end, '\0') << file << ": '" << field << "' in '" << line << "'";
    }
    EXPECT_EQ(row.size(), columns) << file << ": " << line;
    rows.push_back(std::move(row));
  }
  return rows;
}

/// Largest difference between two tables of the same shape, relative to each column's largest
/// magnitude (a column of zeros compares absolutely).
double max_relative_difference(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b) {
  EXPECT_EQ(a.size(), b.size());
  if (a.empty() || a.size() != b.size()) return INFINITY;
  double worst = 0.0;
  for (std::size_t c = 0; c < a[0].size(); ++c) {
    double scale = 0.0;
    for (const auto& row : a) scale = std::max(scale, std::abs(row[c]));
    for (std::size_t r = 0; r < a.size(); ++r)
      worst = std::max(worst, std::abs(a[r][c] - b[r][c]) / (scale > 0.0 ? scale : 1.0));
  }
  return worst;
}

/// The last `n` rows of a table.
std::vector<std::vector<double>> last_rows(const std::vector<std::vector<double>>& rows, std::size_t n) {
  return {rows.end() - static_cast<std::ptrdiff_t>(std::min(n, rows.size())), rows.end()};
}

/// The entries (time, file) of a results.pvd; fails the test when one is malformed.
std::vector<std::pair<double, std::string>> read_pvd(const fs::path& file) {
  const std::string text = read_text(file);
  EXPECT_NE(text.find("<VTKFile type=\"Collection\""), std::string::npos) << file;
  EXPECT_NE(text.find("</Collection>"), std::string::npos) << file;
  std::vector<std::pair<double, std::string>> entries;
  for (std::size_t at = text.find("<DataSet"); at != std::string::npos; at = text.find("<DataSet", at + 1)) {
    const std::size_t t = text.find("timestep=\"", at) + 10;
    const std::size_t f = text.find("file=\"", at) + 6;
    entries.emplace_back(std::strtod(text.c_str() + t, nullptr), text.substr(f, text.find('"', f) - f));
  }
  return entries;
}


/// Largest absolute difference of the points and of every point array of two frames.
double max_frame_difference(const fs::path& a_file, const fs::path& b_file) {
  const auto a = read_vtu(a_file), b = read_vtu(b_file);
  if (a->GetNumberOfPoints() != b->GetNumberOfPoints()) return INFINITY;
  double worst = 0.0;
  for (vtkIdType i = 0; i < a->GetNumberOfPoints(); ++i)
    for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(a->GetPoint(i)[c] - b->GetPoint(i)[c]));
  for (int k = 0; k < a->GetPointData()->GetNumberOfArrays(); ++k) {
    vtkDataArray* x = a->GetPointData()->GetArray(k);
    vtkDataArray* y = b->GetPointData()->GetArray(x->GetName());
    if (!y || y->GetNumberOfValues() != x->GetNumberOfValues()) return INFINITY;
    for (vtkIdType v = 0; v < x->GetNumberOfValues(); ++v)
      worst = std::max(worst, std::abs(x->GetVariantValue(v).ToDouble() - y->GetVariantValue(v).ToDouble()));
  }
  return worst;
}

/// Asserts that `restarted` holds the results of `reference` (same directory layout): CSV rows
/// (the last `rows` of the reference when `rows` > 0, all otherwise), the last VTK frame and the
/// counters of summary.json. Prints the measured differences.
void expect_same_results(const fs::path& reference, const fs::path& restarted, std::size_t rows = 0) {
  for (const char* name : {"energy.csv", "sensors.csv"}) {
    const auto ref = read_csv(reference / name), got = read_csv(restarted / name);
    const double diff = max_relative_difference(rows ? last_rows(ref, rows) : ref, got);
    std::cout << "  " << restarted.filename().string() << '/' << name << ": " << got.size()
              << " rows, largest relative difference " << diff << '\n';
    EXPECT_LE(diff, 1e-12) << name;
  }
  const auto ref_pvd = read_pvd(reference / "results.pvd"), got_pvd = read_pvd(restarted / "results.pvd");
  ASSERT_FALSE(ref_pvd.empty());
  ASSERT_FALSE(got_pvd.empty());
  EXPECT_EQ(got_pvd.back(), ref_pvd.back());
  if (rows == 0) {
    EXPECT_EQ(got_pvd, ref_pvd);
  }
  const double frame = max_frame_difference(reference / ref_pvd.back().second, restarted / got_pvd.back().second);
  std::cout << "  last frame " << got_pvd.back().second << ": largest difference " << frame << '\n';
  EXPECT_LE(frame, 1e-12);
  const std::string got_summary = read_text(restarted / "summary.json"), ref_summary = read_text(reference / "summary.json");
  for (const char* key : {"status", "steps", "cut_steps", "newton_iterations", "t_reached", "max_energy_drift"})
    EXPECT_EQ(summary_value(got_summary, key), summary_value(ref_summary, key)) << key;
}

/// Runs `model` to the end with checkpoints, then continues from checkpoint `step` both in a copy
/// of the run's directory and into a new one, and compares with the uninterrupted run.
void check_restart_equivalence(const std::string& name, const std::string& model, std::vector<std::string> settings,
                               long checkpoint_step) {
  const fs::path full = fresh_dir(name + "_full"), same = fresh_dir(name + "_same"), fresh = fresh_dir(name + "_new");
  std::vector<std::string> args{"run", source(model), "--quiet"};
  args.insert(args.end(), settings.begin(), settings.end());
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> all = args;
    all.insert(all.end(), extra.begin(), extra.end());
    return all;
  };
  const Result r = run(with({"--out", full.string()}));
  ASSERT_EQ(r.code, 0) << r.output;
  const fs::path checkpoint = full / CheckpointWriter::file_name(checkpoint_step);
  ASSERT_TRUE(fs::exists(checkpoint)) << r.output;

  // Into the run's own directory: rows and frames after the checkpoint are replaced.
  fs::copy(full, same, fs::copy_options::recursive);
  const Result s = run(with({"--out", same.string(), "--restart", checkpoint.string()}));
  ASSERT_EQ(s.code, 0) << s.output;
  expect_same_results(full, same);
  EXPECT_EQ(summary_value(read_text(same / "summary.json"), "restarted_from"), checkpoint.string());

  // Into a new directory: the continuation only.
  const Result f = run(with({"--out", fresh.string(), "--restart", checkpoint.string()}));
  ASSERT_EQ(f.code, 0) << f.output;
  const Checkpoint c = read_checkpoint(checkpoint);
  const std::size_t continuation =
      read_csv(full / "energy.csv").size() - static_cast<std::size_t>(c.state.written.frames);
  ASSERT_EQ(read_csv(fresh / "energy.csv").size(), continuation);
  expect_same_results(full, fresh, continuation);
  EXPECT_EQ(read_pvd(fresh / "results.pvd").front().second, "results_" + [&] {
    char index[8];
    std::snprintf(index, sizeof index, "%05ld", c.state.written.vtk_frames);
    return std::string(index);
  }() + ".vtu");
}

TEST(Restart, RigidBodiesAndJointsContinueAsAnUninterruptedRun) {
  // Two rigid bodies with offset centres (history: their centre velocities) on revolute joints
  // (history: relative coordinates, multipliers and their rate), with dampers; 200 steps,
  // a checkpoint every 40, continued from step 120; rows every 5 steps, VTK frames every 15.
  check_restart_equivalence("bipendulum", "cases/bipendulum-damped/model.yaml",
                            {"--set", "analysis.t_end=1", "--output-every", "5", "--checkpoint-every", "40", "--set",
                             "output.vtk_every=15"},
                            120);
}

TEST(Restart, BeamsContinueAsAnUninterruptedRun) {
  check_restart_equivalence("spaghetti", "cases/flying-spaghetti-2d/model.yaml",
                            {"--set", "analysis.t_end=3", "--output-every", "2", "--checkpoint-every", "10"}, 20);
}

TEST(Restart, ACheckpointAtOrBeyondTEndIsRefusedNotCompletedDoingNothing) {
  // Issue 39: a restart whose t_end lay before its checkpoint said "continuing ... at t = 0.5 s"
  // then "completed", exit 0, having taken no step.
  const fs::path first = fresh_dir("beyond_first"), again = fresh_dir("beyond_again");
  const std::string model = source("cases/bathe-pendulum/model.yaml");
  ASSERT_EQ(run({"run", model, "--out", first.string(), "--set", "analysis.t_end=1", "--checkpoint-every", "5",
                 "--quiet"})
                .code,
            0);
  const fs::path checkpoint = first / CheckpointWriter::file_name(5);  // t = 0.5 s
  for (const std::string t_end : {"0.2", "0.5"}) {
    const Result r = run({"run", model, "--out", again.string(), "--set", "analysis.t_end=" + t_end, "--restart",
                          checkpoint.string(), "--quiet"});
    EXPECT_EQ(r.code, 2) << t_end << ": " << r.output;
    EXPECT_NE(r.output.find("the checkpoint is at t = 0.5 s (step 5), at or beyond this run's analysis.t_end = " +
                            t_end + " s: nothing to continue"),
              std::string::npos)
        << r.output;
    EXPECT_FALSE(fs::exists(again / "summary.json")) << t_end;  // refused before anything is written
  }
  // One step beyond it continues.
  const Result on = run({"run", model, "--out", again.string(), "--set", "analysis.t_end=0.6", "--restart",
                         checkpoint.string(), "--quiet"});
  EXPECT_EQ(on.code, 0) << on.output;
  EXPECT_EQ(summary_value(read_text(again / "summary.json"), "steps"), "6");
}

TEST(Restart, CheckpointKeyInTheModelFileKeepsTheNewestThree) {
  const fs::path dir = fresh_dir("key");
  fs::create_directories(dir);
  const fs::path model = dir / "model.yaml";
  {
    std::ofstream m(model);
    m << read_text(source("cases/bathe-pendulum/model.yaml")) << "output:\n  checkpoint_every: 2\n";
  }
  const Result r = run({"run", model.string(), "--out", (dir / "out").string(), "--set", "analysis.t_end=1", "--quiet"});
  ASSERT_EQ(r.code, 0) << r.output;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir / "out"))
    if (CheckpointWriter::step_of(e.path().filename().string())) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  // 10 steps: checkpoints at 2, 4, 6, 8 (none after the last step); the newest three are kept.
  EXPECT_EQ(files, (std::vector<std::string>{"checkpoint_000004.ckpt", "checkpoint_000006.ckpt",
                                             "checkpoint_000008.ckpt"}));
  EXPECT_EQ(summary_value(read_text(dir / "out" / "summary.json"), "checkpoint"), (dir / "out" / "checkpoint_000008.ckpt").string());
  // A negative count is refused by the reader with the key named.
  const Result bad = run({"check", model.string(), "--set", "output.checkpoint_every=-1"});
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_NE(bad.output.find("output.checkpoint_every"), std::string::npos) << bad.output;
}

TEST(Restart, CheckpointOfAnotherModelIsRefused) {
  const fs::path pendulum = fresh_dir("other_pendulum"), top = fresh_dir("other_top");
  ASSERT_EQ(run({"run", source("cases/bathe-pendulum/model.yaml"), "--out", pendulum.string(), "--set",
                 "analysis.t_end=1", "--checkpoint-every", "5", "--quiet"})
                .code,
            0);
  const fs::path checkpoint = pendulum / CheckpointWriter::file_name(5);
  ASSERT_TRUE(fs::exists(checkpoint));
  const Result r = run({"run", source("cases/heavy-top/model.yaml"), "--out", top.string(), "--restart",
                        checkpoint.string(), "--quiet"});
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find(checkpoint.string()), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("written by model 'bathe-pendulum'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("not by this model 'heavy-top'"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(top / "energy.csv"));  // refused before anything is written

  // The same model changed (another dt: another time grid) is refused too.
  const Result changed = run({"run", source("cases/bathe-pendulum/model.yaml"), "--out", top.string(), "--set",
                              "analysis.dt=0.05", "--restart", checkpoint.string(), "--quiet"});
  EXPECT_EQ(changed.code, 2) << changed.output;
  EXPECT_NE(changed.output.find("the model has changed since"), std::string::npos) << changed.output;

  // A truncated checkpoint is refused with what is missing.
  const fs::path truncated = pendulum / "truncated.ckpt";
  {
    const std::string text = read_text(checkpoint);
    std::ofstream out(truncated);
    out << text.substr(0, text.size() / 2);
  }
  const Result cut = run({"run", source("cases/bathe-pendulum/model.yaml"), "--out", top.string(), "--set",
                          "analysis.t_end=1", "--restart", truncated.string(), "--quiet"});
  EXPECT_EQ(cut.code, 2) << cut.output;
  EXPECT_NE(cut.output.find("not a readable Catena checkpoint"), std::string::npos) << cut.output;

  // A directory holding another run's results is not cut back: the continuation must go elsewhere.
  ASSERT_EQ(run({"run", source("cases/heavy-top/model.yaml"), "--out", top.string(), "--set", "analysis.t_end=1e-3",
                 "--quiet"})
                .code,
            0);
  const std::string top_energy = read_text(top / "energy.csv");
  const Result mixed = run({"run", source("cases/bathe-pendulum/model.yaml"), "--out", top.string(), "--set",
                            "analysis.t_end=1", "--restart", checkpoint.string(), "--quiet"});
  EXPECT_EQ(mixed.code, 2) << mixed.output;
  EXPECT_NE(mixed.output.find("another --out directory"), std::string::npos) << mixed.output;
  EXPECT_EQ(read_text(top / "energy.csv"), top_energy);
}

TEST(Restart, ACheckpointThatWasChangedOrDoesNotFitTheModelIsRefused) {
  // Issue 20: one changed digit, a negative step, a NaN time or another value of a parameter that
  // reaches only a joint's law continued with exit 0 and wrong results; each is refused now.
  const fs::path dir = fresh_dir("changed_checkpoint"), out = fresh_dir("changed_checkpoint_out");
  const std::string model = source("cases/spin-up-simo/model.yaml");
  const std::vector<std::string> settings = {"--set", "analysis.t_end=0.1", "--checkpoint-every", "5", "--quiet"};
  std::vector<std::string> args = {"run", model, "--out", dir.string()};
  args.insert(args.end(), settings.begin(), settings.end());
  ASSERT_EQ(run(args).code, 0);
  const fs::path checkpoint = dir / CheckpointWriter::file_name(5);
  const std::string text = read_text(checkpoint);
  const auto restart_from = [&](const std::string& changed, std::vector<std::string> extra = {}) {
    const fs::path file = dir / "changed.ckpt";
    std::ofstream(file) << changed;
    std::vector<std::string> a = {"run", model, "--out", out.string(), "--restart", file.string()};
    a.insert(a.end(), settings.begin(), settings.end());
    a.insert(a.end(), extra.begin(), extra.end());
    return run(a);
  };
  // The checkpoint as written continues.
  EXPECT_EQ(restart_from(text).code, 0);
  // A digit of a node's position changed: the checksum no longer matches.
  std::string flipped = text;
  const std::size_t node = flipped.find("\nnode 3 ");
  ASSERT_NE(node, std::string::npos);
  const std::size_t digit = flipped.find_first_of("123456789", node + 9);
  flipped[digit] = flipped[digit] == '9' ? '8' : static_cast<char>(flipped[digit] + 1);
  const Result r1 = restart_from(flipped);
  EXPECT_EQ(r1.code, 2) << r1.output;
  EXPECT_NE(r1.output.find("checksum does not match"), std::string::npos) << r1.output;
  // Edited with the checksum made again: values no run writes are refused by what they are.
  const auto resealed = [&](const std::string& from, const std::string& to) {
    std::string body = text.substr(0, text.rfind("\nchecksum ") + 1);
    const std::size_t at = body.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    body.replace(at, from.size(), to);
    std::uint64_t h = 14695981039346656037ULL;  // FNV-1a, as the checkpoint's
    for (const char c : body) {
      h ^= static_cast<unsigned char>(c);
      h *= 1099511628211ULL;
    }
    char sum[24];
    std::snprintf(sum, sizeof sum, "%016llx", static_cast<unsigned long long>(h));
    return body + "checksum " + sum + "\nend\n";
  };
  const Result r2 = restart_from(resealed(" step 5 ", " step -5 "));
  EXPECT_EQ(r2.code, 2) << r2.output;
  EXPECT_NE(r2.output.find("step -5"), std::string::npos) << r2.output;
  const std::size_t t_at = text.find("\nt ") + 3;
  const std::string t_value = text.substr(t_at, text.find(' ', t_at) - t_at);
  const Result r3 = restart_from(resealed("\nt " + t_value + " ", "\nt nan "));
  EXPECT_EQ(r3.code, 2) << r3.output;
  EXPECT_NE(r3.output.find("not a readable Catena checkpoint"), std::string::npos) << r3.output;
  const Result r4 = restart_from(resealed("\nt " + t_value + " ", "\nt 1p-3 "));
  EXPECT_EQ(r4.code, 2) << r4.output;
  EXPECT_NE(r4.output.find("is not step 5 times dt"), std::string::npos) << r4.output;
  // Another final hub speed reaches only the drive's law: the fingerprint covers it now.
  const Result r5 = restart_from(text, {"--set", "omega_s=5"});
  EXPECT_EQ(r5.code, 2) << r5.output;
  EXPECT_NE(r5.output.find("the model has changed since"), std::string::npos) << r5.output;
  // What a continued run may change: how far it runs and what it writes.
  fs::remove_all(out);
  EXPECT_EQ(restart_from(text, {"--set", "analysis.t_end=0.12", "--set", "analysis.output_every=2"}).code, 0);
  EXPECT_FALSE(fs::exists(out / "changed.ckpt"));
}

TEST(Restart, CheckpointRoundTripIsExact) {
  Checkpoint c;
  c.model = ModelFingerprint{"a model with spaces", 12, 2, 1, 0x0123456789abcdefULL};
  c.state.t = 0.1 + 0.2;
  c.state.step = 7;
  c.state.h = 1.0 / 3.0;
  c.state.successes = 2;
  c.state.written.frames = 4;
  c.state.written.last_frame_step = 6;
  c.state.written.last_frame_t = 0.3 - 1e-17;
  c.state.written.vtk_frames = 2;
  c.state.written.last_vtk_frame_step = 5;
  c.state.written.last_vtk_frame_t = 0.25;
  c.state.balance0 = -1e-300;
  c.state.states.resize(2);
  c.state.states[1].position = fem::Vec3(1e-310, -0.0, 3.0 / 7.0);
  c.state.states[1].orientation = fem::Quaternion(0.5, 0.5, -0.5, std::sqrt(0.25));
  c.state.states[1].angular_velocity = fem::Vec3(std::nextafter(1.0, 2.0), 2, 3);
  c.state.work = {1.0 / 9.0, 2.0 / 9.0};
  c.state.element_history = {{1.0, std::acos(-1.0), -std::exp(1.0)}};
  c.state.counters.steps = 41;
  c.state.counters.equilibrium_increments = 3;
  c.state.counters.numeric_factorizations = 17;
  c.state.counters.max_energy_drift = 1e-15 / 7.0;
  c.state.kept_jacobian = {
      true, 3, 8, 4, 7, 1e-3, fem::TimeScheme::Midpoint, 1, {1.0 / 3.0, -0.0, 5e-324, 1e300, 2, 3, 4, 5, 6},
      {std::sqrt(0.5), -std::sqrt(0.5), 0, std::sqrt(0.5), std::sqrt(0.5), 0, 0, 0, 1}};
  const fs::path dir = fresh_dir("roundtrip");
  fs::create_directories(dir);
  write_checkpoint(dir / "c.ckpt", c);
  EXPECT_FALSE(fs::exists(dir / "c.ckpt.tmp"));
  const Checkpoint r = read_checkpoint(dir / "c.ckpt");
  EXPECT_EQ(checkpoint_text(r), checkpoint_text(c));
  EXPECT_EQ(r.model.model_name, c.model.model_name);
  EXPECT_EQ(r.model.hash, c.model.hash);
  EXPECT_EQ(r.state.t, c.state.t);
  EXPECT_EQ(r.state.h, c.state.h);
  EXPECT_EQ(r.state.states[1].position, c.state.states[1].position);
  EXPECT_TRUE(std::signbit(r.state.states[1].position.y()));
  EXPECT_EQ(r.state.states[1].angular_velocity, c.state.states[1].angular_velocity);
  EXPECT_EQ(r.state.element_history, c.state.element_history);
  EXPECT_EQ(r.state.work.dissipated, c.state.work.dissipated);
  EXPECT_EQ(r.state.counters.equilibrium_increments, 3);
  EXPECT_EQ(r.state.counters.numeric_factorizations, 17);
  EXPECT_EQ(r.state.counters.max_energy_drift, c.state.counters.max_energy_drift);
  EXPECT_EQ(r.state.written.vtk_frames, 2);
  EXPECT_EQ(r.state.written.last_vtk_frame_t, 0.25);
  EXPECT_TRUE(r.state.kept_jacobian.valid);
  EXPECT_EQ(r.state.kept_jacobian.h, 1e-3);
  EXPECT_EQ(r.state.kept_jacobian.fresh_starts, 3);
  EXPECT_EQ(r.state.kept_jacobian.backoff, 8);
  EXPECT_EQ(r.state.kept_jacobian.baseline, 4);
  EXPECT_EQ(r.state.kept_jacobian.excess, 7);
  EXPECT_EQ(r.state.kept_jacobian.values, c.state.kept_jacobian.values);
  EXPECT_EQ(r.state.kept_jacobian.axes, c.state.kept_jacobian.axes);
  EXPECT_NO_THROW(check_same_model(r, c.model, dir / "c.ckpt"));
  ModelFingerprint other = c.model;
  other.hash ^= 1;
  EXPECT_THROW(check_same_model(r, other, dir / "c.ckpt"), CheckpointError);
}

TEST(Restart, SigtermAtAnyInstantOfAnEigenAnalysisLeavesASummary) {
  // Issue 20: an eigen-analysis had no handler (killed, no summary.json), and a SIGTERM in the
  // first 0.2 s of any run killed it. Now from the first instant, between the phases and inside
  // the eigensolver's iterations: exit 143 and summary.json "interrupted". A rod of 2 000 beam
  // elements: its eigensolve takes long enough to be caught in it at the later instants.
  const std::string model = source("tests/solvers/models/cantilever_modes.yaml");
  for (const int delay_ms : {5, 100, 400}) {
    const fs::path out = fresh_dir("eigen_sigterm_" + std::to_string(delay_ms));
    const fs::path log = out.string() + ".log";
    const pid_t pid = spawn_cli({"run", model, "--out", out.string(), "--quiet", "--set", "n=2000"}, log);
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    ASSERT_EQ(::kill(pid, SIGTERM), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by the signal at " << delay_ms << " ms: " << read_text(log);
    if (WEXITSTATUS(status) == 0) continue;  // finished first: nothing to check at this instant
    EXPECT_EQ(WEXITSTATUS(status), 143) << read_text(log);
    const std::string summary = read_text(out / "summary.json");
    EXPECT_EQ(summary_value(summary, "status"), "interrupted") << delay_ms << " ms: " << read_text(log);
    EXPECT_NE(summary_value(summary, "message").find("stopped by SIGTERM"), std::string::npos);
  }
}

TEST(Restart, PetscOptionsItRefusesAreBadInputAndNothingIsWritten) {
  // Issue 20: `-- -options_file /missing` ended in SIGABRT with a backtrace.
  const fs::path out = fresh_dir("petsc_options");
  const Result r = run({"run", source("cases/bathe-pendulum/model.yaml"), "--out", out.string(), "--quiet", "--",
                        "-options_file", "/nonexistent/catena.opts"});
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("PETSc did not start with the options after '--'"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out / "summary.json"));
  // An LU package PETSc does not have was found as a "singular Jacobian" in the first step.
  const Result package = run({"run", source("cases/bathe-pendulum/model.yaml"), "--out", out.string(), "--quiet",
                              "--", "-pc_factor_mat_solver_type", "nonsense"});
  EXPECT_EQ(package.code, 2) << package.output;
  EXPECT_NE(package.output.find("-pc_factor_mat_solver_type nonsense: no LU factorization of that name"),
            std::string::npos)
      << package.output;
  EXPECT_FALSE(fs::exists(out / "summary.json"));
}

TEST(Restart, SigtermLeavesReadableFilesAndACheckpointToContinueFrom) {
  // The damped double pendulum to t = 30 s (6000 steps, a few seconds of wall time).
  const fs::path full = fresh_dir("sig_full"), stopped = fresh_dir("sig_stopped");
  const std::vector<std::string> settings{"run", source("cases/bipendulum-damped/model.yaml"), "--quiet", "--set",
                                          "analysis.t_end=30", "--output-every", "10", "--checkpoint-every", "100"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> all = settings;
    all.insert(all.end(), extra.begin(), extra.end());
    return all;
  };
  const fs::path log = stopped.string() + ".log";
  const pid_t pid = spawn_cli(with({"--out", stopped.string()}), log);
  ASSERT_GT(pid, 0);
  // SIGTERM once the run is under way (a few rows written: it is stepping, its handlers are set).
  const auto start = std::chrono::steady_clock::now();
  auto rows = [&] {
    std::ifstream in(stopped / "energy.csv");
    return std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
  };
  while (rows() < 4 && std::chrono::steady_clock::now() - start < std::chrono::seconds(20))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(::kill(pid, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << read_text(log);
  ASSERT_EQ(WEXITSTATUS(status), 143) << "the run ended before SIGTERM reached it? " << read_text(log);

  // Readable files: the CSV parse, the index parses and lists existing frames, the last opens.
  const auto energy = read_csv(stopped / "energy.csv");
  const auto sensors = read_csv(stopped / "sensors.csv");
  ASSERT_GE(energy.size(), 2U);
  EXPECT_EQ(sensors.size(), energy.size());
  const auto pvd = read_pvd(stopped / "results.pvd");
  ASSERT_EQ(pvd.size(), energy.size());
  for (const auto& [t, file] : pvd) EXPECT_TRUE(fs::exists(stopped / file)) << file;
  const auto last = read_vtu(stopped / pvd.back().second);
  EXPECT_EQ(last->GetFieldData()->GetArray("TIME")->GetTuple1(0), pvd.back().first);
  EXPECT_EQ(pvd.back().first, energy.back()[0]);
  const std::string summary = read_text(stopped / "summary.json");
  EXPECT_EQ(summary_value(summary, "status"), "interrupted");
  EXPECT_NE(summary_value(summary, "message").find("SIGTERM"), std::string::npos);
  const std::string checkpoint = summary_value(summary, "checkpoint");
  ASSERT_FALSE(checkpoint.empty()) << summary;
  EXPECT_NE(summary_value(summary, "message").find("--restart " + checkpoint), std::string::npos);
  // The checkpoint is at the step where the run stopped.
  EXPECT_EQ(read_checkpoint(checkpoint).state.t, energy.back()[0]);

  // Continued from there in its own directory, the run ends as one that was never stopped.
  const Result resumed = run(with({"--out", stopped.string(), "--restart", checkpoint}));
  ASSERT_EQ(resumed.code, 0) << resumed.output;
  const Result uninterrupted = run(with({"--out", full.string()}));
  ASSERT_EQ(uninterrupted.code, 0) << uninterrupted.output;
  expect_same_results(full, stopped);
}

}  // namespace
}  // namespace catena::io
