#pragma once
/// Time histories as CSV, one row per frame, numbers as "%.17g" (they read back bit for bit):
///   energy.csv   t,kinetic,strain,potential,external_work,dissipated,balance,px,py,pz,Lx,Ly,Lz
///                [s, J × 6, N·s × 3, N·m·s × 3]; balance = EnergyRecord::balance(), constant for
///                every model; p momentum, L angular momentum about the global origin
///   sensors.csv  t, then one column per model sensor, named as in the model (fem::evaluate_sensor)
/// Each row is flushed as soon as it is written, so the files survive a crash of the run.
#include "solvers/observer.hpp"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <string_view>

namespace catena::io {

class CsvWriter final : public solvers::Observer {
 public:
  static constexpr std::string_view energy_file_name = "energy.csv";
  static constexpr std::string_view sensors_file_name = "sensors.csv";
  static constexpr std::string_view sensitivities_file_name = "sensitivities.csv";
  static constexpr std::string_view energy_header =
      "t,kinetic,strain,potential,external_work,dissipated,balance,px,py,pz,Lx,Ly,Lz";

  /// Creates `directory` if needed and opens both files. `append == false`: truncates them and
  /// writes the headers. `append == true` (restart): keeps existing rows and adds after them; a
  /// missing or empty file gets its header, an existing one must start with the header this model
  /// would write (else std::runtime_error: the columns would not match). `model` must outlive the
  /// writer. Neither file is written through a symbolic link (io/output_directory.hpp): a new
  /// file replaces a link, and a link is not appended to. Throws OutputError (a
  /// std::runtime_error) naming the file when it cannot be opened or written.
  /// `sensitivity_columns` not empty (`catena run --sensitivity`): also sensitivities.csv, with
  /// these columns after t (solvers::DirectSensitivity::column_names) and Frame::sensitivities.
  CsvWriter(const std::filesystem::path& directory, const fem::Model& model, bool append = false,
            const std::vector<std::string>& sensitivity_columns = {});

  /// Appends one row to each file and flushes them. Throws std::invalid_argument when
  /// `frame.states` does not hold one state per node, OutputError on a write error.
  void on_frame(const solvers::Frame& frame) override;

  /// Restart into the directory of the run a checkpoint belongs to: the size in bytes of `file`
  /// that keeps its header and its first `rows` rows (truncate it to that with
  /// std::filesystem::resize_file). Row `rows` must be at time `last_t` (its first field, read
  /// back exactly). Throws std::runtime_error naming the file when it has fewer rows or another
  /// time there (then these are not that run's results), or is a symbolic link (it would be cut
  /// through it).
  [[nodiscard]] static std::uintmax_t size_keeping_rows(const std::filesystem::path& file, long rows,
                                                        double last_t);

  /// Header line of sensors.csv for `model` (sensor names quoted as CSV requires).
  [[nodiscard]] static std::string sensors_header(const fem::Model& model);

 private:
  struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  /// A CSV file opened for writing rows, with its path for messages.
  struct File {
    std::filesystem::path path;
    std::unique_ptr<std::FILE, FileCloser> handle;
  };
  static File open(const std::filesystem::path& path, std::string_view header, bool append);
  static void write_row(File& file, const std::string& row);

  const fem::Model& model_;
  File energy_;
  File sensors_;
  std::optional<File> sensitivities_;
  std::string row_;  ///< reused for every row
};

}  // namespace catena::io
