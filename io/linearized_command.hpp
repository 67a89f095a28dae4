#pragma once
/// `catena run` for eigen and buckling analyses (solvers/linearized_analysis.hpp). Writes in the
/// output folder:
///   results.pvd, energy.csv, sensors.csv   the linearization state (one frame, t = 0)
///   modes.csv      mode, frequency_hz (damped, |Im s|/2π), natural_frequency_hz (|s|/2π),
///                  damping_ratio (−Re s/|s|), s_real, s_imag [1/s], kind (rigid, elastic, unstable)
///   modes/mode_NN/results.pvd   each mode shape as a ParaView series over one period
///                  (`mode_frames` frames, TIME = fraction of the period): the state plus
///                  `mode_amplitude` Im(φ e^{iθ}) (solvers::Mode::shape); cell data linearized about
///                  the state (io/linearized_cell_values.hpp), said in the field-data string `cell_data`
///   mode_sensitivities.csv   (--sensitivity p1,p2; eigen) mode, then per parameter p the
///                  derivatives frequency_hz:p, natural_frequency_hz:p, damping_ratio:p, s_real:p,
///                  s_imag:p of modes.csv's columns (solvers/eigen_sensitivity.hpp); NaN for rigid
///                  modes and repeated eigenvalues whose partner was not computed
///   buckling.csv   (buckling) load_factor, lowest_stiffness_eigenvalue [N/m] along the tracked path;
///                  modes/buckling_mode/ the linear buckling mode, about the preload state
///   buckling_sensitivities.csv   (--sensitivity p1,p2; buckling) one row: per parameter p,
///                  critical_load_factor_linear:p, the derivative of the linear critical factor
///                  (solvers/eigen_sensitivity.hpp); NaN where it has none
///   K.mtx, D.mtx, M.mtx   (export_matrices) Matrix Market, tableau numbering (1-based)
///   summary.json   as for other runs, with the frequencies or critical load factors as extras
#include "fem/model.hpp"
#include "io/commands.hpp"

#include <filesystem>
#include <string>

namespace catena::io {

/// How an analysis ended: `catena run`'s exit code and, unless it completed, the message `catena
/// run` prints for it (its lines, without the final newline).
struct LinearizedOutcome {
  int exit_code = exit_ok;
  std::string message;
};

/// Runs the analysis of `model` (type Eigen or Buckling) into `out`. Prints only what
/// `options.quiet` silences (the banner on stderr, the modes or the critical load on stdout): a
/// failure is returned, for the caller to print (`catena run`) or to raise (the Python module,
/// whose quiet run prints nothing).
[[nodiscard]] LinearizedOutcome run_linearized_command(const RunOptions& options, fem::Model& model,
                                                       const std::filesystem::path& out);

}  // namespace catena::io
