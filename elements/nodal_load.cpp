#include "elements/nodal_load.hpp"

#include "elements/autodiff.hpp"
#include "fem/step_rotation.hpp"

namespace catena::elements {

NodalLoad::NodalLoad(std::string name, std::span<const fem::Node> nodes, fem::NodeId node,
                     std::array<fem::Expression, 3> values, LoadKind kind, LoadAxes axes, double scale)
    : Element(std::move(name)),
      node_(node),
      block_(kind == LoadKind::Force ? nodes[node.index].displacement : nodes[node.index].rotation),
      rotation_(nodes[node.index].rotation),
      values_(std::move(values)),
      kind_(kind),
      axes_(axes),
      scale_(scale) {
  if ((kind == LoadKind::Moment || axes == LoadAxes::Follower) && !rotation_.valid())
    throw std::invalid_argument("load '" + this->name() + "': node '" + nodes[node.index].name +
                                "' is not a frame node; moments and follower loads need one");
}

void NodalLoad::declare(fem::UnknownRegistry& registry) {
  if (axes_ == LoadAxes::Follower && kind_ == LoadKind::Force) registry.couple({block_, rotation_});
  else registry.couple({block_});
}

fem::Vec3 NodalLoad::value(double t) const {
  return scale_ * fem::Vec3(values_[0](t), values_[1](t), values_[2](t));
}

namespace {

/// The load over the step in its own axes: the trapezoidal average, or the end value in statics.
fem::Vec3 load_over_step(const NodalLoad& load, const fem::StepState& s) {
  if (s.scheme == fem::TimeScheme::Static) return s.load_factor * load.value(s.t_end());
  return 0.5 * (load.value(s.t_n) + load.value(s.t_end()));
}

/// The node's rotation over the part of the step at which follower axes are taken: the middle
/// (dynamics), or the end (statics).
template <class T>
fem::Mat3T<T> follower_rotation(const fem::StepState& s, const fem::Vec3T<T>& b) {
  return s.scheme == fem::TimeScheme::Static ? fem::step_rotation(b) : fem::half_step_rotation(b);
}

}  // namespace

void NodalLoad::stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const {
  const fem::Vec3 g = load_over_step(*this, s);
  if (axes_ == LoadAxes::Global) {
    r.add<3>(block_, fem::Vec3(-g));
    return;
  }
  // Follower: −R' R_n g with R' the rotation up to the follower instant, differentiated with
  // respect to the rotation unknown b.
  const fem::Mat3 R_n = s.at_start(node_).orientation.toRotationMatrix();
  const auto b = ad::variables<3>(s.rotation_increment(node_));
  const Eigen::Matrix<ad::Dual<3>, 3, 1> f =
      -(follower_rotation(s, b) * ad::constant<ad::Dual<3>>(fem::Vec3(R_n * g)));
  r.add<3>(block_, fem::Vec3(ad::values(f)));
  j.add<3, 3>(block_, rotation_, fem::Mat3(ad::jacobian(f)));
}

void NodalLoad::add_step_work(const fem::StepState& s, fem::StepWork& w) const {
  fem::Vec3 g = load_over_step(*this, s);
  if (axes_ == LoadAxes::Follower)
    g = follower_rotation(s, s.rotation_increment(node_)) * s.at_start(node_).orientation.toRotationMatrix() * g;
  const fem::Vec3 path = kind_ == LoadKind::Force ? s.increment(node_) : s.rotation_increment(node_);
  w.external_work += g.dot(path);
}

}  // namespace catena::elements
