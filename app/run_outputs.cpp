#include "app/run_outputs.hpp"

#include "assembly/collectives.hpp"
#include "assembly/petsc_session.hpp"
#include "io/output_directory.hpp"

#include <iostream>

namespace catena::app {

namespace {

bool is_root() { return assembly::PetscSession::rank() == 0; }

/// Restart into `out`: when it holds the results of the run the checkpoint belongs to, cut them
/// back to the checkpoint (rows, frames, later checkpoints) and report true; a directory without
/// results gets the continuation only (false). Everything is checked before anything is cut.
bool prepare_restart_output(const std::filesystem::path& out, const solvers::IntegratorState& s, io::VtkWriter& vtk,
                            io::SceneWriter* scene) {
  namespace fs = std::filesystem;
  using io::CsvWriter;
  const fs::path energy = out / CsvWriter::energy_file_name;
  const fs::path sensors = out / CsvWriter::sensors_file_name;
  std::error_code ec;
  const bool own_directory =
      fs::exists(energy, ec) || fs::exists(sensors, ec) || fs::exists(out / io::VtkWriter::index_file_name, ec);
  // The scene's frames are the VTK frames: cut (or continued) like results.pvd.
  auto resume_vtk = [&] {
    vtk.resume(s.written.vtk_frames, s.written.last_vtk_frame_t);
    if (scene) scene->resume(s.written.vtk_frames, s.written.last_vtk_frame_t);
  };
  if (!own_directory) {
    resume_vtk();
    return false;
  }
  const std::uintmax_t energy_size = CsvWriter::size_keeping_rows(energy, s.written.frames, s.written.last_frame_t);
  const std::uintmax_t sensors_size = CsvWriter::size_keeping_rows(sensors, s.written.frames, s.written.last_frame_t);
  const fs::path sensitivities = out / CsvWriter::sensitivities_file_name;
  const bool has_sensitivities = !s.sensitivity_parameters.empty() && fs::exists(sensitivities, ec);
  const std::uintmax_t sensitivities_size =
      has_sensitivities ? CsvWriter::size_keeping_rows(sensitivities, s.written.frames, s.written.last_frame_t) : 0;
  resume_vtk();
  fs::resize_file(energy, energy_size);
  fs::resize_file(sensors, sensors_size);
  if (has_sensitivities) fs::resize_file(sensitivities, sensitivities_size);
  io::CheckpointWriter::remove_after(out, s.step);
  return true;
}

}  // namespace

void lock_output_directory(const std::filesystem::path& out, std::optional<io::RunDirectoryLock>& lock) {
  std::string error;
  if (is_root()) {
    try {
      lock.emplace(out);
    } catch (const std::exception& e) {
      error = std::string("catena: ") + e.what();
    }
  }
  if (!assembly::all_ranks_agree(error.empty())) throw RunError(io::exit_bad_input, error);
}

RunOutputs::RunOutputs(const std::filesystem::path& out, const fem::Model& model, const assembly::Tableau& tableau,
                       const solvers::IntegratorState* restart, const io::ModelFingerprint& print,
                       const std::vector<std::string>& sensitivity_columns)
    : out_(out) {
  std::string error;  // rank 0's, the one reported
  try {
    if (is_root() && !restart) io::remove_earlier_run_outputs(out);  // before any rank writes
    vtk_ = std::make_unique<io::VtkWriter>(out, model, tableau.comm(), tableau.local_elements());
  } catch (const std::exception& e) {
    // Every rank fails together; a rank other than 0 may hold the cause, so it speaks too.
    if (is_root())
      error = out.string() + ": " + e.what();
    else
      std::cerr << "catena: rank " << assembly::PetscSession::rank() << ": " << out.string() << ": " << e.what()
                << '\n';
  }
  if (vtk_ && is_root()) {
    try {
      // Rank 0 alone writes the whole scene: it needs every node's state, which every rank keeps,
      // and the model's geometry (io/scene_writer.hpp).
      if (model.analysis.scene) scene_ = std::make_unique<io::SceneWriter>(out, model);
      if (restart) continued_in_place_ = prepare_restart_output(out, *restart, *vtk_, scene_.get());
      csv_ = std::make_unique<io::CsvWriter>(out, model, continued_in_place_, sensitivity_columns);
      if (model.analysis.checkpoint_every > 0) checkpoints_ = std::make_unique<io::CheckpointWriter>(out, print);
    } catch (const std::exception& e) {
      error = out.string() + ": " + e.what();
    }
  } else if (vtk_ && restart) {
    // Other ranks continue the frame numbering only; rank 0 checks and cuts the files.
    vtk_->resume(restart->written.vtk_frames, restart->written.last_vtk_frame_t);
  }
  const bool ok = vtk_ && error.empty();
  if (!assembly::all_ranks_agree(ok)) throw RunError(io::exit_bad_input, error);
}

void RunOutputs::add_to(io::ObserverFanOut& observers) {
  observers.add(*vtk_);
  if (scene_) observers.add(*scene_);
  if (csv_) observers.add(*csv_);
  if (checkpoints_) observers.add(*checkpoints_);
}

void RunOutputs::write_running_summary(const io::SummaryData& running) const {
  std::string error;
  if (is_root()) {
    try {
      io::write_running_summary(out_ / "summary.json", running, io::this_process());
    } catch (const std::exception& e) {
      error = "catena: output failed: " + std::string(e.what());
    }
  }
  if (!assembly::all_ranks_agree(error.empty())) throw RunError(io::exit_output_failure, error);
}

void RunOutputs::flush_indexes() {
  vtk_->flush_index();
  if (scene_) scene_->flush_index();
}

bool RunOutputs::write_summary(const io::SummaryData& summary) const {
  return io::write_summary_json_or_report(out_ / "summary.json", summary);
}

std::optional<std::filesystem::path> RunOutputs::last_checkpoint() const {
  if (!checkpoints_) return std::nullopt;
  return checkpoints_->last_written();
}

}  // namespace catena::app
