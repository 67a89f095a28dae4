#pragma once
/// summary.json: what a run did, in one JSON object (one key per field below, in this order,
/// the counters by their list (solvers/run_counters.hpp), the optional `checkpoint` and
/// `restarted_from` only when set, the counters reported at the end when set, the `extra`
/// entries as further keys, then the object `sensor_units`, then `analysis`, `dt`, `reactions`,
/// the objects `sensor_sources` and `sensitivity_parameters`, `objective` and the object
/// `objective_gradient`, each when set: keys are only
/// ever added at the end). Strings are JSON-escaped, doubles written with 17
/// significant digits, NaN and infinities as null.
#include "fem/model.hpp"
#include "solvers/run_counters.hpp"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace catena::io {

struct SummaryData {
  std::string model_name;
  std::string status;   ///< "completed", "failed" or "interrupted" ("running" while it runs)
  std::string message;  ///< why it failed or stopped; empty when completed
  long n_unknowns = 0;
  long n_nonzeros = 0;  ///< of the Newton matrix
  int mpi_ranks = 1;
  int threads = 1;  ///< threads stamping the elements at the end of the run (assembly::Tableau)
  std::vector<long> rows_per_rank;
  /// Written as keys in the order of solvers::run_counter_fields (solvers/run_counters.hpp).
  solvers::RunCounters counters;
  /// The last checkpoint written (`output.checkpoint_every`), the one to pass to --restart; the
  /// key `checkpoint` is written only when there is one.
  std::string checkpoint;
  /// The checkpoint this run continued (--restart); the key `restarted_from` only when set.
  std::string restarted_from;
  /// Each sensor's name and unit (fem::sensor_unit; empty when unknown), in the model's order:
  /// the key `sensor_units`, an object, written when there are sensors.
  std::vector<std::pair<std::string, std::string>> sensor_units;
  /// Further named figures (solver specific); each name must differ from the fields above.
  std::vector<std::pair<std::string, double>> extra;
  /// After `sensor_units`, each key written only when set (ModelFacts): the analysis type
  /// (`analysis`: "dynamic", "static", "eigen" or "buckling"); for dynamic analyses the nominal
  /// step (`dt` [s]) and when joint reactions are reported (`reactions`: "step_average", the mean
  /// over the step that ends at a row, or "instantaneous", at the row's time).
  std::string analysis;
  double dt = 0.0;
  std::string reactions;
  /// Where each element sensor reads (`sensor_sources`, an object: `{"pin_fx": {"element":
  /// "pin", "field": "reaction_force_x"}, ...}`, in the model's order; node sensors and points
  /// along a beam are not listed), so that tools find e.g. the reactions among the columns.
  struct SensorSource {
    std::string sensor;
    std::string element;
    std::string field;
  };
  std::vector<SensorSource> sensor_sources;
  /// With `catena run --sensitivity`: each parameter with its value and the difference step of
  /// its partial derivatives (`sensitivity_parameters`, an object: `{"EI": {"value": 14000,
  /// "step": 42}, ...}`, last).
  struct SensitivityParameter {
    std::string name;
    double value = 0.0;
    double step = 0.0;
  };
  std::vector<SensitivityParameter> sensitivity_parameters;
  /// `analysis.objective`'s value at the time reached (`objective`), and with `--sensitivity` its
  /// derivative per parameter (`objective_gradient`, an object `{"a0": -0.22, ...}`), last.
  std::optional<double> objective;
  std::vector<std::pair<std::string, double>> objective_gradient;
};

/// `text` as a JSON string literal (RFC 8259 §7): quote, backslash and control characters
/// escaped; other bytes (UTF-8) as they are.
[[nodiscard]] std::string json_string(std::string_view text);
/// `value` with 17 significant digits (format_double), or null when it is not finite.
[[nodiscard]] std::string json_number(double value);

/// Fills what SummaryData says about the model itself: sensor_units, analysis, dt, reactions and
/// sensor_sources.
void describe_model(const fem::Model& model, SummaryData& data);

/// SummaryData::sensor_units of a model's sensors.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> sensor_units(const fem::Model& model);

/// The JSON text of `data` (2-space indentation, one key per line, ending with a newline).
/// Throws std::invalid_argument when an `extra` name repeats a key.
[[nodiscard]] std::string summary_json(const SummaryData& data);

/// Writes `summary_json(data)` to `file` atomically (`<file>.tmp`, then rename), creating its
/// directory if needed. When there is no room for the `.tmp` (a full disk) it is written over the
/// room a running summary kept (write_running_summary), in place. Throws OutputError (a
/// std::runtime_error) naming the file and the reason when it cannot be written either way.
void write_summary_json(const std::filesystem::path& file, const SummaryData& data);

/// Bytes of spaces after a running summary: room for the final summary's longer message, counters
/// and objects (a failed run's message is at most a few hundred bytes).
inline constexpr std::size_t summary_reserve_bytes = 16384;

/// summary.json as a run starts writing its results: `data` with status "running" and a message
/// naming `process` ("pid 1234 on host node7"). It replaces an earlier run's summary at once, so
/// that the directory never shows that one beside this run's files (a run killed by SIGKILL or a
/// power loss leaves "running"), and it is followed by summary_reserve_bytes of spaces (JSON
/// whitespace), the room write_summary_json falls back on when the disk has filled.
void write_running_summary(const std::filesystem::path& file, SummaryData data, std::string_view process);
/// The same at the end of a command: a failure is reported on stderr ("catena: " and the
/// reason) and answered false, for the command to exit with its output-failure code.
[[nodiscard]] bool write_summary_json_or_report(const std::filesystem::path& file, const SummaryData& data);

}  // namespace catena::io
