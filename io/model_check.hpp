#pragma once
/// What `catena check` finds in a model beyond reading it, shared with the Python module's
/// `Model.check()` (python/src/model_facts.cpp): the constraints' rank test, what the first stamp
/// would refuse, the Newton matrix's size and the elements per kind. No PETSc: the rank test runs
/// on a dense matrix (fem/constraint_rank.hpp), the size comes from the declared couplings.
#include "assembly/ordering.hpp"
#include "fem/model.hpp"

#include <map>
#include <optional>
#include <string>

namespace catena::io {

struct ModelCheck {
  /// Why `check` and `run` refuse the model (redundant constraints, an element that cannot be
  /// stamped at the initial state), naming `display` and the model file's lines; none: valid.
  std::optional<std::string> refusal;
  bool has_joints = false;
  /// Whether the rank test ran (up to 1500 unknowns).
  bool constraints_tested = false;
  assembly::PatternSize size;  ///< of the Newton matrix
  /// Elements per kind, joints by theirs: "beam", "joint (revolute)".
  std::map<std::string, int> element_kinds;
};

[[nodiscard]] ModelCheck check_model(const fem::Model& model, const std::string& display);

}  // namespace catena::io
