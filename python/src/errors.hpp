#pragma once
/// catena.Error: what a simulation, a model or a checkpoint refuses, with `catena run`'s exit code
/// (`exit_code`: 2 bad input, 3 solver failure, 4 output failure, 130/143 interrupted) and its
/// message (a model's mistakes located as FILE:LINE:COLUMN: KEY: MESSAGE). A RuntimeError.
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

namespace catena::python {

/// The error carried as a C++ exception until pybind11 translates it.
class Error : public std::runtime_error {
 public:
  Error(int exit_code, const std::string& message) : std::runtime_error(message), exit_code_(exit_code) {}
  [[nodiscard]] int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

/// Adds `Error` to the module and translates app::RunError, io::InputError and Error into it.
void register_errors(pybind11::module_& module);

}  // namespace catena::python
