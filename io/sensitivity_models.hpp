#pragma once
/// The models `catena run --sensitivity p1,p2` differentiates with (solvers/direct_sensitivity.hpp):
/// for each parameter, the model file read again with the same --set options and the parameter set
/// to p + kε (k = −2, −1, 1, 2; ε = 1e-3 |p|, or 1e-3 when p = 0), each checked to have the run's
/// structure. A parameter the model does not declare, one that changes the structure (a count, a
/// node, an element, a support, the sensors) or the time grid and analysis settings is refused
/// with a message naming it and what it changes: the derivative is only defined where a change of
/// the parameter changes numbers, not the model's shape.
#include "fem/model.hpp"
#include "io/commands.hpp"
#include "solvers/direct_sensitivity.hpp"

#include <stdexcept>
#include <vector>

namespace catena::io {

/// A parameter that cannot be differentiated by: the user's fault (exit code 2).
class SensitivityInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The relative difference step: the partials' truncation O(ε⁴) and rounding O(1e-16/ε) balance
/// near 1e-3 (docs/sensitivity.md gives the measured error).
inline constexpr double sensitivity_relative_step = 3e-3;

/// Reads the perturbed models of `options.sensitivity` for the run's `model`. Throws
/// SensitivityInputError, also for a model that does not read at a perturbed value (a count).
[[nodiscard]] std::vector<solvers::ParameterModels> read_parameter_models(const RunOptions& options,
                                                                          const fem::Model& model);
/// The same for the parameters `names` (--gradient's); `option` names the option in messages.
[[nodiscard]] std::vector<solvers::ParameterModels> read_parameter_models(const RunOptions& options,
                                                                          const fem::Model& model,
                                                                          const std::vector<std::string>& names,
                                                                          const std::string& option);

/// The first difference in structure between `a` and `b` that a differentiation cannot cross
/// ("the number of elements: 12, 14"), empty when there is none.
[[nodiscard]] std::string structure_difference(const fem::Model& a, const fem::Model& b);

}  // namespace catena::io
