#pragma once
/// Checkpoints of long runs (`output.checkpoint_every`, `catena run --restart FILE`).
///
/// A checkpoint holds what solvers::IntegratorState holds: time, nominal step, the step size
/// control, every node state (position, velocity, orientation quaternion, angular velocity), the
/// work and dissipation so far, each element's history (Element::save_history: a rigid body's
/// centre velocity, a joint's relative coordinates, multipliers and their rate), the output
/// counters (frames written, time of the last one) and the run's counters, plus a fingerprint of
/// the model that wrote it. It is a text file; every double is written in hexadecimal
/// floating point (std::chars_format::hex), so it reads back bit for bit:
///
///   catena-checkpoint 8
///   model <name>
///   fingerprint <16 hex digits> unknowns <n> nodes <n> elements <n>
///   t <x> step <k> h <x> successes <n>
///   frames <n> last_frame_step <k> last_frame_t <x> vtk_frames <n> last_vtk_frame_step <k>
///          last_vtk_frame_t <x> balance0 <x>         (rows and VTK frames of the output grids)
///   work <external_work> <dissipated>
///   counters <steps> <equilibrium_increments> <cut_steps> <newton_iterations> <residual_evaluations>
///            <jacobian_evaluations> <linear_solves> <numeric_factorizations> <max_energy_drift>
///            (the counters a continued run carries on, in the order of solvers/run_counters.hpp)
///   increments <n> <h>        then n lines `<Δx> <φ>` (6 values; static analyses)
///   node <i> <x y z> <vx vy vz> <qw qx qy qz> <ωx ωy ωz>       one line per node
///   element <i> <n> <values...>                                one line per element
///   jacobian <valid> <fresh_starts> <backoff> <baseline> <excess> <h> <scheme> <ranks> <n>   Newton's kept
///            Jacobian (run state)
///            then n values, 8 per line (Tableau::jacobian_values: rows in order, columns ascending)
///   axes <n>   then n values, 9 per line: the nodes' axes where the kept Jacobian was evaluated
///   lu_pivoting <0|1>   1: LU without pivoting failed earlier in the run, SuperLU since
///   objective <integral> <integrand>
///   sensitivity <k> <names...> <n>   then n values, 8 per line (--sensitivity's derivatives)
///   inputs <n> <values...>   the model's named inputs as a program set them (fem::Inputs::values;
///            version 7, read too, has no such line: the inputs keep the model's values)
///   checksum <16 hex digits>   FNV-1a of every byte above: a changed byte is refused
///   end
///
/// Reading refuses, besides malformed or truncated text and a wrong checksum, values no run
/// writes (a negative step, a time that is not finite, a state that is not finite, a quaternion
/// that is not a unit one, frame counts past the step) and, against the model, a time that is not
/// the step times dt.
///
/// Files are `checkpoint_<step, 6 digits>.ckpt` in the output directory, written atomically
/// (`.tmp`, then rename); the newest `CheckpointWriter::files_kept` are kept.
#include "solvers/time_integrator.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace catena::io {

/// What identifies the model a checkpoint belongs to. `hash` covers the model file's document as
/// the run read it, --set options applied (io::restart_document: every parameter, load, law,
/// element and setting, but for analysis.t_end, analysis.output_every and the `output` section,
/// so that a restart may run further or write differently), the model name, the nodes (names,
/// kinds, reference positions, initial states), the elements (names and kinds), every unknown
/// block (owner, label, kind, size, supports), gravity, the analysis type, integrator and dt.
struct ModelFingerprint {
  std::string model_name;
  long unknowns = 0;
  long nodes = 0;
  long elements = 0;
  std::uint64_t hash = 0;
  double dt = 0.0;  ///< the nominal step (not written: a checkpoint's t must be its step times it)
};

[[nodiscard]] ModelFingerprint fingerprint(const fem::Model& model, long n_unknowns, std::string_view document);

struct Checkpoint {
  ModelFingerprint model;
  solvers::IntegratorState state;
};

/// A checkpoint that cannot be read or does not belong to the model; `what()` names the file.
class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The checkpoint's text (format above).
[[nodiscard]] std::string checkpoint_text(const Checkpoint& checkpoint);
/// Writes `checkpoint_text` to `file` atomically. Throws std::runtime_error naming the file.
void write_checkpoint(const std::filesystem::path& file, const Checkpoint& checkpoint);
/// Reads a checkpoint. Throws CheckpointError naming the file and what is wrong (not a
/// checkpoint, truncated, a malformed number).
[[nodiscard]] Checkpoint read_checkpoint(const std::filesystem::path& file);
/// Throws CheckpointError when `checkpoint` (read from `file`) was written by another model than
/// `current`, naming both.
void check_same_model(const Checkpoint& checkpoint, const ModelFingerprint& current,
                      const std::filesystem::path& file);

/// Writes a checkpoint file for every `on_checkpoint` of the integrator.
class CheckpointWriter final : public solvers::Observer {
 public:
  static constexpr int files_kept = 3;

  /// `directory` must exist (the other writers create it).
  CheckpointWriter(std::filesystem::path directory, ModelFingerprint model);
  /// Writes `checkpoint_<step>.ckpt`, then removes all but the newest `files_kept` checkpoints
  /// up to this step.
  void on_checkpoint(const solvers::IntegratorState& state) override;
  /// The last file written, if any.
  [[nodiscard]] const std::optional<std::filesystem::path>& last_written() const { return last_written_; }

  /// "checkpoint_000120.ckpt" for step 120.
  [[nodiscard]] static std::string file_name(long step);
  /// The step of a checkpoint file name, or nothing when `name` is not one.
  [[nodiscard]] static std::optional<long> step_of(const std::string& name);
  /// Removes the checkpoints of `directory` after `step` (restarting into a run's own directory:
  /// they belong to the results past the checkpoint, which the continuation replaces).
  static void remove_after(const std::filesystem::path& directory, long step);

 private:
  std::filesystem::path directory_;
  ModelFingerprint model_;
  std::optional<std::filesystem::path> last_written_;
};

}  // namespace catena::io
