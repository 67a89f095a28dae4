#pragma once
/// What the Python module says about a model without running it: `catena.Model`'s description
/// (read when it is made) and `Model.check()`, the facts `catena check` prints.
#include "fem/model.hpp"

#include <pybind11/pybind11.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace catena::python {

/// A model file, or a model's text with the name its messages cite (`file` then).
struct ModelSource {
  std::filesystem::path file;
  std::optional<std::string> text;
};

/// Reads and validates the model with `overrides` (`--set`'s). Throws io::InputError.
[[nodiscard]] fem::Model read_model(const ModelSource& source, const std::vector<std::string>& overrides);

/// The model's name, analysis, dt and t_end, nodes, sensors (names, in order) and parameters
/// (name: value).
[[nodiscard]] pybind11::dict describe(const fem::Model& model);

/// `describe` and what `catena check` adds: unknowns and non-zeros of the Newton matrix, elements
/// per kind, sets, the beams' bending planes, the analysis' settings and the constraints' rank
/// test. Throws Error (exit code 2) where `catena check` refuses the model.
[[nodiscard]] pybind11::dict check(const fem::Model& model, const std::string& display);

}  // namespace catena::python
