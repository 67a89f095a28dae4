#include "app/run_command.hpp"

#include "app/simulation.hpp"
#include "assembly/petsc_session.hpp"
#include "io/stop_signals.hpp"

#include <iostream>
#include <utility>

namespace catena::app {

int run_command(const io::RunOptions& options) {
  io::install_stop_handlers();  // already since main; again for callers that did not (tests)
  try {
    SimulationOptions simulation_options;
    simulation_options.run = options;
    simulation_options.stop = &io::stop_requested();
    Simulation simulation(std::move(simulation_options));
    return simulation.run().exit_code;
  } catch (const RunError& e) {
    if (assembly::PetscSession::rank() == 0 && *e.what() != '\0') std::cerr << e.what() << '\n';
    return e.exit_code();
  }
}

}  // namespace catena::app
