#pragma once
/// catena.Simulation: a run driven from Python (app::Simulation), stepped with the GIL released.
#include <pybind11/pybind11.h>

namespace catena::python {

void bind_simulation(pybind11::module_& module);

}  // namespace catena::python
