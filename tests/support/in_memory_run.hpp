#pragma once
/// The options of a Simulation that writes nothing (tests/app/).
#include "app/simulation.hpp"

namespace catena::testing {

inline app::SimulationOptions in_memory(const io::RunOptions& run) {
  app::SimulationOptions o;
  o.run = run;
  o.write_files = false;
  return o;
}

}  // namespace catena::testing
