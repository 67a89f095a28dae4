#pragma once
/// The files of a dynamic or static run (README, "Output files"): results.pvd with its frames,
/// scene.pvd, energy.csv, sensors.csv (sensitivities.csv), checkpoints and summary.json, set up
/// together before the first step so that a directory that cannot take them is refused before
/// anything is computed. Every rank writes its piece of the VTK output (one .vtu on one rank, a
/// .pvtu of pieces on several); rank 0 alone writes the other files.
#include "app/simulation.hpp"
#include "assembly/tableau.hpp"
#include "io/checkpoint.hpp"
#include "io/csv_writer.hpp"
#include "io/progress.hpp"
#include "io/run_directory.hpp"
#include "io/scene_writer.hpp"
#include "io/summary_writer.hpp"
#include "io/vtk_writer.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace catena::app {

/// Rank 0 takes `out`'s lock (io/run_directory.hpp) into `lock`; every rank learns whether it got
/// it, so that all refuse together (RunError, exit code 2, rank 0's message).
void lock_output_directory(const std::filesystem::path& out, std::optional<io::RunDirectoryLock>& lock);

class RunOutputs {
 public:
  /// Collective. A fresh run first removes an earlier run's outputs from `out`; a restart
  /// (`restart` not null) continues the run's own files cut back to its checkpoint, or starts
  /// new ones with the continuation only (`continued_in_place()` says which). Throws RunError
  /// (exit code 2) on every rank when any rank cannot set up its files.
  RunOutputs(const std::filesystem::path& out, const fem::Model& model, const assembly::Tableau& tableau,
             const solvers::IntegratorState* restart, const io::ModelFingerprint& print,
             const std::vector<std::string>& sensitivity_columns);

  /// The writers of this rank, to be told every frame and checkpoint.
  void add_to(io::ObserverFanOut& observers);
  /// summary.json "running" at once, with room kept for the final one (collective; RunError
  /// with exit code 4 when it cannot be written).
  void write_running_summary(const io::SummaryData& running) const;
  /// Brings the indexes results.pvd and scene.pvd up to date (they follow the frames at most
  /// twice a second while a run goes). Throws io::OutputError.
  void flush_indexes();
  /// The final summary.json (rank 0); false (reported on stderr) when it cannot be written.
  [[nodiscard]] bool write_summary(const io::SummaryData& summary) const;
  [[nodiscard]] bool continued_in_place() const { return continued_in_place_; }
  /// The last checkpoint written, if any (rank 0).
  [[nodiscard]] std::optional<std::filesystem::path> last_checkpoint() const;

 private:
  std::filesystem::path out_;
  std::unique_ptr<io::VtkWriter> vtk_;
  std::unique_ptr<io::SceneWriter> scene_;
  std::unique_ptr<io::CsvWriter> csv_;
  std::unique_ptr<io::CheckpointWriter> checkpoints_;
  bool continued_in_place_ = false;
};

}  // namespace catena::app
