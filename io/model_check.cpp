#include "io/model_check.hpp"

#include "elements/joint.hpp"
#include "fem/constraint_rank.hpp"
#include "fem/start_stamp.hpp"

#include <algorithm>

namespace catena::io {

ModelCheck check_model(const fem::Model& model, const std::string& display) {
  ModelCheck check;
  const auto& blocks = model.registry.blocks();
  check.has_joints = std::any_of(blocks.begin(), blocks.end(),
                                 [](const fem::BlockInfo& b) { return b.kind == fem::UnknownKind::Multiplier; });
  // What the first stamp of `run` would refuse, first, as `run` refuses it before its rank test:
  // that test stamps every element too, and an element it cannot stamp (a law on its kink) would
  // fail it without the element's name and line.
  check.refusal = fem::first_unstampable_element(model);
  if (check.refusal) return check;
  // The rank test of `run` at t = 0: a model whose joints over-constrain it is not valid.
  const std::optional<std::vector<fem::DependentUnknown>> redundant =
      check.has_joints ? fem::redundant_unknowns(model) : std::nullopt;
  check.constraints_tested = redundant.has_value();
  if (redundant && !redundant->empty()) {
    check.refusal = display + ": model '" + model.name + "': " + fem::redundancy_message(*redundant, model);
    return check;
  }
  check.size = assembly::pattern_size(assembly::block_graph(model.registry));
  for (const auto& e : model.elements) {
    const auto* joint = dynamic_cast<const elements::Joint*>(e.get());
    ++check.element_kinds[joint ? "joint (" + joint->definition().kind + ")" : std::string(e->kind())];
  }
  return check;
}

}  // namespace catena::io
