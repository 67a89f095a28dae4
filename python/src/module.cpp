// The extension module catena._catena, which the package catena (python/catena/) re-exports:
// the simulation object of app/simulation.hpp, reading and checking models, PETSc's session.
#include "errors.hpp"
#include "model_facts.hpp"
#include "runtime.hpp"
#include "simulation_binding.hpp"

#include "assembly/collectives.hpp"
#include "assembly/petsc_session.hpp"
#include "io/vtk_module.hpp"

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <dlfcn.h>

namespace py = pybind11;
using namespace catena;

namespace {

/// The folder of this extension module: the package's, where the build puts the VTK module too.
std::filesystem::path own_directory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&own_directory), &info) == 0 || !info.dli_fname) return {};
  return std::filesystem::path(info.dli_fname).parent_path();
}

python::ModelSource source(const std::filesystem::path& model, const std::optional<std::string>& text) {
  return {model, text};
}

}  // namespace

PYBIND11_MODULE(_catena, module) {
  module.doc() = "Catena's C++ side; use the package `catena` (docs/python.md).";
  python::register_errors(module);
  // python3 is not catena-run: the VTK module is found next to this one (CATENA_VTK_MODULE wins).
  io::vtk::set_module_directory(own_directory());
  // PETSc finishes before the interpreter destroys what is left (simulations held by globals).
  py::module_::import("atexit").attr("register")(py::cpp_function(&python::finish));
  // A child forked from a process where PETSc runs leaves the parent's PETSc and MPI alone.
  py::module_::import("os").attr("register_at_fork")(py::arg("after_in_child") =
                                                         py::cpp_function(&python::forget_after_fork));

  module.def(
      "start", [](const std::vector<std::string>& petsc_options) { python::start(petsc_options); },
      py::arg("petsc_options") = std::vector<std::string>(),
      "Starts PETSc (and MPI) with these options of PETSc's (e.g. ['-snes_monitor']); the first simulation "
      "starts it without options otherwise. Under mpirun every rank must call it.");
  module.def("started", &python::started, "Whether PETSc runs in this process.");
  module.def("rank", &assembly::PetscSession::rank, "This process's MPI rank (0 without mpirun).");
  module.def("size", &assembly::PetscSession::size, "The number of MPI ranks (1 without mpirun).");
  // What the package's Python code needs to share between ranks (a temporary directory's name).
  module.def(
      "broadcast_text",
      [](std::string text) {
        python::ensure_started();
        assembly::broadcast_text_from_root(text);
        return text;
      },
      py::arg("text"), "Rank 0's text, on every rank (collective; starts PETSc).");
  module.def(
      "barrier",
      [] {
        python::ensure_started();
        static_cast<void>(assembly::all_ranks_agree(true));
      },
      "Returns once every rank has called it (collective; starts PETSc).");
  module.def(
      "describe",
      [](const std::filesystem::path& model, const std::optional<std::string>& text,
         const std::vector<std::string>& overrides) {
        return python::describe(python::read_model(source(model, text), overrides));
      },
      py::arg("model"), py::kw_only(), py::arg("text") = py::none(), py::arg("overrides") = std::vector<std::string>(),
      "Reads and validates a model: {'name', 'analysis', 'nodes', 'sensors', 'parameters'}; raises Error.");
  module.def(
      "check",
      [](const std::filesystem::path& model, const std::optional<std::string>& text,
         const std::vector<std::string>& overrides) {
        return python::check(python::read_model(source(model, text), overrides), model.string());
      },
      py::arg("model"), py::kw_only(), py::arg("text") = py::none(), py::arg("overrides") = std::vector<std::string>(),
      "What `catena check` prints, as a dict; raises Error where it refuses the model.");
  python::bind_simulation(module);
}
