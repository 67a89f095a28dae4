#pragma once
/// `catena run`: reads the model, integrates, writes results; returns the exit code (io/commands.hpp
/// lists them). PETSc must be initialized. A client of app::Simulation (app/simulation.hpp), which
/// does everything: this function only reports what it throws.
///
/// Rank 0 holds the output directory's lock for the whole run (a directory another run holds is
/// refused: io/run_directory.hpp); a run that does not restart first removes an earlier run's
/// frames and checkpoints there. With `restart`, the run continues from the checkpoint: into the
/// directory of the run that wrote it (it has energy.csv, sensors.csv or results.pvd), whose rows
/// and frames after the checkpoint are removed first, so that the files end as an uninterrupted
/// run's; or into a new directory, which gets the continuation only (CSV rows after the
/// checkpoint, VTK frames numbered on from it).
#include "io/commands.hpp"

namespace catena::app {

int run_command(const io::RunOptions& options);

}  // namespace catena::app
