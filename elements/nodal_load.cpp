#include "elements/nodal_load.hpp"

namespace catena::elements {

NodalLoad::NodalLoad(std::string name, std::span<const fem::Node> nodes, fem::NodeId node,
                     std::array<fem::Expression, 3> force)
    : Element(std::move(name)), node_(node), block_(nodes[node.index].displacement), force_(std::move(force)) {}

void NodalLoad::declare(fem::UnknownRegistry& registry) { registry.couple({block_}); }

fem::Vec3 NodalLoad::force(double t) const { return {force_[0](t), force_[1](t), force_[2](t)}; }

fem::Vec3 NodalLoad::step_average(const fem::StepState& s) const {
  return 0.5 * (force(s.t_n) + force(s.t_end()));
}

void NodalLoad::stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink&) const {
  const fem::Vec3 f = -step_average(s);
  r.add<3>(block_, f);
}

void NodalLoad::add_step_work(const fem::StepState& s, fem::StepWork& w) const {
  w.external_work += step_average(s).dot(s.increment(node_));
}

}  // namespace catena::elements
