#pragma once
/// `catena optimize MODEL.yaml --parameters a0,a1 --bounds a0=-10:10 --out DIR`: minimizes the
/// model's `analysis.objective` over the named parameters within their bounds
/// (docs/sensitivity.md, "Optimization"). The minimizer is PETSc TAO's bounded quasi-Newton method
/// (solvers/bounded_minimizer.hpp); each of its evaluations is a whole run in this process, an
/// in-memory app::Simulation (app/objective_evaluation.hpp: nothing written), with the parameters
/// set as `--set` sets them and the objective's gradient by the direct method or, with
/// `--gradient-method adjoint`, the adjoint.
/// DIR gets optimize.csv (a row per iteration, kept when a later run fails), optimize.json (the
/// result), and the run at the optimum with its derivatives, as `catena run --sensitivity` (or
/// `--gradient`) writes it (summary.json, sensors.csv, ...).
///
/// Exit codes as `catena run`'s: 2 for bad input (an unknown parameter, bounds that do not hold
/// the model's value, a model without an objective, a parameter value the model refuses as
/// `catena run` refuses it), 3 when a run fails (solver failure: the rows so far and optimize.json
/// kept), 4 when a file cannot be written. Hitting --max-iterations is not a failure: exit 0,
/// status "stopped" in optimize.json.
#include "io/commands.hpp"

namespace catena::app {

/// PETSc must be initialized.
int optimize_command(const io::RunOptions& options, const io::OptimizeOptions& optimize);

}  // namespace catena::app
