// A libFuzzer target of what `catena check` does with a model file (io/model_commands.cpp): the
// bytes are written to a file, read by io::read_model, and a model it accepts goes through the
// check's pattern count and rank test. A model file may only be accepted or refused with an
// io::InputError; anything else (a sanitizer report, another exception, a hang, memory running
// out) is a finding. Built by the `fuzz` preset (clang, AddressSanitizer + UBSan + libFuzzer's
// coverage) and run by tools/fuzz-model-reader, seeded with every model file of the repository.
#include "assembly/ordering.hpp"
#include "fem/constraint_rank.hpp"
#include "fem/start_stamp.hpp"
#include "io/model_reader.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;

/// Generated items (nodes, elements, bodies, repetitions) one input may ask for. The reader
/// accepts any count whose model fits its memory limit (io/model/size_budget), and a fuzzer finds
/// a large count at once: `elements: 1e6` fits, yet takes longer under AddressSanitizer than the
/// 20 s an input may. Inputs above the budget are left out (not a finding), so that the run looks
/// for crashes, not for slow large models.
constexpr double generated_budget = 20000;

/// The rank test's size limit here: `catena check` tests up to 1500 unknowns densely, seconds per
/// input under AddressSanitizer; the small models the fuzzer makes reach the same code.
constexpr int rank_test_unknowns = 300;

/// The whole number a count key gives, when it is a plain literal; nothing for an expression.
std::optional<double> literal_count(const YAML::Node& value) {
  if (!value.IsScalar()) return std::nullopt;
  const std::string& text = value.Scalar();
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

/// within_budget for `node` once it is among `enclosing`: its items and entries.
bool within_budget_below(const YAML::Node& node, double scale, std::vector<YAML::Node>& enclosing);

/// Whether the counts in `node` (beams' `elements`, chains' `bodies`, `repeat` ranges, nested
/// repeats multiplied) stay within `budget` items, `scale` being the repetitions around `node`.
/// A count given by an expression of parameters is not evaluated here: such inputs are left out.
/// `enclosing` are the nodes around `node`: an alias inside the node its anchor names makes
/// yaml-cpp's tree a cycle (`&a {b: *a}`), which is counted once and left to the reader (found by
/// this fuzzer: the walk overflowed the stack).
bool within_budget(const YAML::Node& node, double scale, std::vector<YAML::Node>& enclosing) {
  if (std::any_of(enclosing.begin(), enclosing.end(), [&](const YAML::Node& e) { return e.is(node); })) return true;
  enclosing.push_back(node);
  const bool within = within_budget_below(node, scale, enclosing);
  enclosing.pop_back();
  return within;
}

bool within_budget_below(const YAML::Node& node, double scale, std::vector<YAML::Node>& enclosing) {
  if (node.IsSequence()) {
    for (const YAML::Node& item : node)
      if (!within_budget(item, scale, enclosing)) return false;
    return true;
  }
  if (!node.IsMap()) return true;
  double repetitions = 1;
  if (const YAML::Node range = node["repeat"]; range && range.IsMap()) {
    const YAML::Node from = range["from"], to = range["to"], step = range["step"];
    if (!from || !to) return true;  // refused by the reader
    const std::optional<double> a = literal_count(from), b = literal_count(to);
    const std::optional<double> s = step ? literal_count(step) : std::optional<double>(1.0);
    if (!a || !b || !s || *s == 0) return false;
    repetitions = std::max(1.0, std::floor((*b - *a) / *s) + 1);
  }
  for (const auto& entry : node) {
    const YAML::Node key = entry.first, value = entry.second;
    if (key.IsScalar() && (key.Scalar() == "elements" || key.Scalar() == "bodies")) {
      const std::optional<double> n = literal_count(value);
      if (value.IsScalar() && (!n || std::abs(*n) * scale * repetitions > generated_budget)) return false;
    }
    if (!within_budget(value, scale * repetitions, enclosing)) return false;
  }
  return scale * repetitions <= generated_budget;
}

bool wanted(std::string_view text) {
  try {
    // The first document only: the reader refuses a second one (and yaml-cpp's LoadAll can loop
    // forever, io/model_reader.cpp says when).
    std::vector<YAML::Node> enclosing;
    return within_budget(YAML::Load(std::string(text)), 1, enclosing);
  } catch (const YAML::Exception&) {
    // Malformed YAML is the reader's to refuse.
  }
  return true;
}

/// The file the reader reads (it takes a path, as `catena check` does), one per process, removed
/// when the run ends normally.
const fs::path& input_file() {
  static const fs::path file = [] {
    std::atexit([] {
      std::error_code ignored;
      fs::remove(input_file(), ignored);
    });
    return fs::temp_directory_path() / ("catena_fuzz_" + std::to_string(getpid()) + ".yaml");
  }();
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (!wanted(text)) return -1;  // not added to the corpus
  {
    std::ofstream out(input_file(), std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) std::abort();  // the harness's own failure, not the reader's
  }
  try {
    const catena::fem::Model model = catena::io::read_model(input_file());
    // As `catena check` (io/model_check.cpp): an element the first step cannot stamp is refused,
    // with its place, before the rank test stamps them all.
    if (catena::fem::first_unstampable_element(model)) return 0;
    (void)catena::fem::redundant_unknowns(model, rank_test_unknowns);
    (void)catena::assembly::pattern_size(catena::assembly::block_graph(model.registry));
  } catch (const catena::io::InputError&) {
    // A refusal with its place: what a model file may get.
  }
  return 0;
}
