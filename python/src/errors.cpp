#include "errors.hpp"

#include "app/simulation.hpp"
#include "io/commands.hpp"
#include "io/input_error.hpp"

namespace catena::python {

namespace py = pybind11;

namespace {

/// The class catena.Error (a new reference kept for the process's life: the translator needs it
/// after the module's import).
PyObject* error_type = nullptr;

void raise(int exit_code, const char* message) {
  py::object error = py::reinterpret_borrow<py::object>(error_type)(message);
  error.attr("exit_code") = exit_code;
  PyErr_SetObject(error_type, error.ptr());
}

}  // namespace

void register_errors(py::module_& module) {
  error_type = PyErr_NewExceptionWithDoc(
      "catena.Error",
      "What Catena refuses or where a run failed: str(error) is `catena run`'s message (a model's "
      "mistakes as FILE:LINE:COLUMN: KEY: MESSAGE), error.exit_code its exit code (2 bad input, "
      "3 solver failure, 4 output failure, 130/143 interrupted).",
      PyExc_RuntimeError, nullptr);
  if (!error_type) throw py::error_already_set();
  module.add_object("Error", py::handle(error_type));
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const app::RunError& e) {
      raise(e.exit_code(), e.what());
    } catch (const io::InputError& e) {
      raise(io::exit_bad_input, e.what());
    } catch (const Error& e) {
      raise(e.exit_code(), e.what());
    }
  });
}

}  // namespace catena::python
