// summary.json (io/summary_writer): every field written, read back by a minimal JSON reader and
// compared with what was given; key order; names that repeat a field rejected.
#include "io/summary_writer.hpp"
#include "io/output_directory.hpp"
#include "support/small_disk.hpp"
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace catena::io {
namespace {

namespace fs = std::filesystem;
using testing::parse_double;
using testing::read_text;
using testing::ScratchDirectory;

/// A minimal JSON reader for a flat object: key -> value, strings decoded, arrays kept as text.
class FlatJson {
 public:
  explicit FlatJson(std::string text) : text_(std::move(text)) {
    skip();
    expect('{');
    skip();
    if (peek() == '}') return;
    for (;;) {
      skip();
      const std::string key = string();
      skip();
      expect(':');
      skip();
      EXPECT_FALSE(values_.contains(key)) << "duplicate key " << key;
      values_[key] = value();
      skip();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect('}');
      break;
    }
    skip();
    EXPECT_EQ(pos_, text_.size()) << "trailing text";
  }
  [[nodiscard]] const std::map<std::string, std::string>& values() const { return values_; }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  void expect(char c) {
    EXPECT_EQ(peek(), c) << "at " << pos_;
    ++pos_;
  }
  std::string string() {
    expect('"');
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      EXPECT_GE(static_cast<unsigned char>(c), 0x20) << "raw control character in a string";
      if (c == '\\') {
        c = text_[pos_++];
        switch (c) {
          case 'n': c = '\n'; break;
          case 't': c = '\t'; break;
          case 'r': c = '\r'; break;
          case 'b': c = '\b'; break;
          case 'f': c = '\f'; break;
          case 'u':
            c = static_cast<char>(std::stoi(text_.substr(pos_, 4), nullptr, 16));
            pos_ += 4;
            break;
          default: break;  // '"', '\\', '/'
        }
      }
      out += c;
    }
    expect('"');
    return out;
  }
  std::string value() {
    if (peek() == '"') return string();
    const std::size_t start = pos_;
    if (peek() == '[') {
      pos_ = text_.find(']', pos_) + 1;
    } else {
      while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '}' &&
             !std::isspace(static_cast<unsigned char>(text_[pos_])))
        ++pos_;
    }
    return text_.substr(start, pos_ - start);
  }

  std::string text_;
  std::size_t pos_ = 0;
  std::map<std::string, std::string> values_;
};

TEST(SummaryWriter, WritesEveryFieldAsValidJson) {
  const ScratchDirectory dir;
  SummaryData d;
  d.model_name = "pendulum \"A\"\\b\n\t\x01 ‖R‖";
  d.status = "failed";
  d.message = "t = 1.2300 s, step 124: Newton stopped";
  d.n_unknowns = 123456789012L;
  d.n_nonzeros = 42;
  d.mpi_ranks = 2;
  d.threads = 3;
  d.rows_per_rank = {600, 612};
  d.counters.steps = 124;
  d.counters.cut_steps = 3;
  d.counters.newton_iterations = 517;
  d.counters.residual_evaluations = 640;
  d.counters.jacobian_evaluations = 517;
  d.counters.linear_solves = 1034;
  d.counters.symbolic_factorizations = 1;
  d.counters.numeric_factorizations = 517;
  d.counters.wall_seconds = 12.5;
  d.counters.assembly_seconds = 0.1 + 0.2;
  d.counters.factorization_seconds = std::numeric_limits<double>::quiet_NaN();
  d.counters.symbolic_factorization_seconds = 0.25;
  d.counters.solve_seconds = std::numeric_limits<double>::infinity();
  d.counters.t_reached = 1.0 / 3.0;
  d.counters.max_energy_drift = 3.0e-13;
  d.extra = {{"min_step", 1e-5 / 3.0}, {"line_searches", 7.0}};
  const fs::path file = dir.path() / "out" / "summary.json";
  write_summary_json(file, d);
  EXPECT_FALSE(fs::exists(dir.path() / "out" / "summary.json.tmp"));

  const FlatJson json(read_text(file));
  const auto& v = json.values();
  EXPECT_EQ(v.size(), 25U);
  EXPECT_EQ(v.at("model_name"), d.model_name);
  EXPECT_EQ(v.at("status"), "failed");
  EXPECT_EQ(v.at("message"), d.message);
  EXPECT_EQ(v.at("n_unknowns"), "123456789012");
  EXPECT_EQ(v.at("n_nonzeros"), "42");
  EXPECT_EQ(v.at("mpi_ranks"), "2");
  EXPECT_EQ(v.at("threads"), "3");
  EXPECT_EQ(v.at("rows_per_rank"), "[600, 612]");
  EXPECT_EQ(v.at("steps"), "124");
  EXPECT_EQ(v.at("cut_steps"), "3");
  EXPECT_EQ(v.at("newton_iterations"), "517");
  EXPECT_EQ(v.at("residual_evaluations"), "640");
  EXPECT_EQ(v.at("jacobian_evaluations"), "517");
  EXPECT_EQ(v.at("linear_solves"), "1034");
  EXPECT_EQ(v.at("symbolic_factorizations"), "1");
  EXPECT_EQ(v.at("numeric_factorizations"), "517");
  EXPECT_EQ(parse_double(v.at("wall_seconds")), 12.5);
  EXPECT_EQ(parse_double(v.at("assembly_seconds")), 0.1 + 0.2);
  EXPECT_EQ(v.at("factorization_seconds"), "null");
  EXPECT_EQ(parse_double(v.at("symbolic_factorization_seconds")), 0.25);
  EXPECT_EQ(v.at("solve_seconds"), "null");
  EXPECT_EQ(parse_double(v.at("t_reached")), 1.0 / 3.0);
  EXPECT_EQ(parse_double(v.at("max_energy_drift")), 3.0e-13);
  EXPECT_EQ(parse_double(v.at("min_step")), 1e-5 / 3.0);
  EXPECT_EQ(parse_double(v.at("line_searches")), 7.0);

  // Rewriting replaces the file whole.
  d.status = "completed";
  d.extra.clear();
  write_summary_json(file, d);
  const FlatJson again(read_text(file));
  EXPECT_EQ(again.values().at("status"), "completed");
  EXPECT_EQ(again.values().size(), 23U);
}

TEST(SummaryWriter, KeepsTheOrderOfItsKeys) {
  // Users script against summary.json: keys are added, never renamed or reordered. The counters
  // come from one list (solvers/run_counters.hpp); equilibrium_increments, when set, follows the
  // run's files.
  SummaryData d;
  d.counters.linear_solver = "petsc";
  d.counters.equilibrium_increments = 3;
  d.checkpoint = "out/checkpoint_000008.ckpt";
  d.restarted_from = "old/checkpoint_000004.ckpt";
  d.extra = {{"preload", 0.5}};
  d.sensor_units = {{"tip_x", "m"}, {"N \"1\"", "N"}, {"ratio", ""}};
  d.analysis = "dynamic";
  d.dt = 0.25;
  d.reactions = "step_average";
  d.sensor_sources = {{"pin_fx", "pin", "reaction_force_x"}, {"rod_n", "rod", "axial_force"}};
  const std::string text = summary_json(d);
  std::vector<std::string> keys;
  for (std::size_t at = text.find("\n  \""); at != std::string::npos; at = text.find("\n  \"", at + 1))
    keys.push_back(text.substr(at + 4, text.find('"', at + 4) - (at + 4)));
  const std::vector<std::string> expected{
      "model_name", "status", "message", "n_unknowns", "n_nonzeros", "mpi_ranks", "threads", "rows_per_rank",
      "steps", "cut_steps", "newton_iterations", "residual_evaluations", "jacobian_evaluations", "linear_solves",
      "linear_solver", "symbolic_factorizations", "numeric_factorizations", "wall_seconds", "assembly_seconds",
      "factorization_seconds", "symbolic_factorization_seconds", "solve_seconds", "t_reached", "max_energy_drift",
      "checkpoint", "restarted_from", "equilibrium_increments", "preload", "sensor_units", "analysis", "dt",
      "reactions", "sensor_sources"};
  EXPECT_EQ(keys, expected);
  // The object values: each sensor's unit by name, escaped, empty when unknown; each element
  // sensor's element and field.
  EXPECT_NE(text.find("\"sensor_units\": {\"tip_x\": \"m\", \"N \\\"1\\\"\": \"N\", \"ratio\": \"\"},\n"),
            std::string::npos) << text;
  EXPECT_NE(text.find("\"dt\": 0.25,\n  \"reactions\": \"step_average\",\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\"sensor_sources\": {\"pin_fx\": {\"element\": \"pin\", \"field\": \"reaction_force_x\"}, "
                      "\"rod_n\": {\"element\": \"rod\", \"field\": \"axial_force\"}}\n}"),
            std::string::npos) << text;
  EXPECT_NE(text.find("\"equilibrium_increments\": 3,"), std::string::npos) << text;
}

TEST(SummaryWriter, RejectsExtraNameThatRepeatsAField) {
  SummaryData d;
  d.extra = {{"steps", 1.0}};
  EXPECT_THROW((void)summary_json(d), std::invalid_argument);
}

}  // namespace
}  // namespace catena::io

namespace catena::io {
namespace {

TEST(SummaryWriter, StringsAreValidJsonWhateverTheBytes) {
  // Issue 20: a model name in Latin-1 made summary.json invalid. UTF-8 passes as it is (2, 3 and
  // 4 bytes), control characters are escaped, and every byte that is not UTF-8 (a lone
  // continuation, an overlong form, a surrogate, a cut sequence) becomes U+FFFD.
  EXPECT_EQ(json_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa7"), "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa7\"");
  EXPECT_EQ(json_string("caf\xe9"), "\"caf\\ufffd\"");
  EXPECT_EQ(json_string("\x80"), "\"\\ufffd\"");
  EXPECT_EQ(json_string("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
  EXPECT_EQ(json_string("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
  EXPECT_EQ(json_string("\xe2\x82"), "\"\\ufffd\\ufffd\"");
  EXPECT_EQ(json_string("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
}

TEST(SummaryWriter, TheRunningSummaryKeepsRoomForTheFinalOneOnAFullDisk) {
  // Issue 20: on a full disk summary.json could not be written (no room for its .tmp). A run's
  // summary says "running" from its start, followed by the room its final one takes then.
  const ScratchDirectory dir;
  const testing::SmallDisk disk(dir.path() / "disk", "64k");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (" << disk.why_not() << ")";
  const fs::path file = disk.path() / "summary.json";
  SummaryData d;
  d.model_name = "pendulum";
  write_running_summary(file, d, "pid 42 on host here");
  const FlatJson running(read_text(file));
  EXPECT_EQ(running.values().at("status"), "running");
  EXPECT_NE(running.values().at("message").find("pid 42 on host here"), std::string::npos);
  EXPECT_GT(fs::file_size(file), summary_reserve_bytes);

  EXPECT_GT(disk.fill("filler"), 0u);
  d.status = "failed";
  d.message = "output failed: results_00023.vtu: write failed (No space left on device)" + std::string(2000, '.');
  d.counters.steps = 1234;
  d.counters.t_reached = 123.4;
  ASSERT_NO_THROW(write_summary_json(file, d));
  const FlatJson final_summary(read_text(file));
  EXPECT_EQ(final_summary.values().at("status"), "failed");
  EXPECT_EQ(final_summary.values().at("message"), d.message);
  EXPECT_EQ(final_summary.values().at("steps"), "1234");
  EXPECT_EQ(parse_double(final_summary.values().at("t_reached")), 123.4);
  EXPECT_FALSE(fs::exists(disk.path() / "summary.json.tmp"));

  // A summary longer than the room kept has nowhere to go: an output failure, the file untouched.
  const std::string before = read_text(file);
  d.message = std::string(2 * summary_reserve_bytes, '.');
  EXPECT_THROW(write_summary_json(file, d), OutputError);
  EXPECT_EQ(read_text(file), before);
}

}  // namespace
}  // namespace catena::io
