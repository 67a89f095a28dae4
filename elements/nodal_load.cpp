#include "elements/nodal_load.hpp"

#include "elements/autodiff.hpp"
#include "fem/rotation.hpp"

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

/// Fraction of the step's rotation at which follower axes are taken: the middle, or the end.
double follower_instant(const fem::StepState& s) { return s.scheme == fem::TimeScheme::Static ? 1.0 : 0.5; }

}  // namespace

void NodalLoad::stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const {
  const fem::Vec3 g = load_over_step(*this, s);
  if (axes_ == LoadAxes::Global) {
    r.add<3>(block_, fem::Vec3(-g));
    return;
  }
  // Follower: −exp(c φ) R_n g, differentiated with respect to φ.
  const fem::Mat3 R_n = s.at_start(node_).orientation.toRotationMatrix();
  const auto phi = ad::variables<3>(fem::Vec3(follower_instant(s) * s.rotation_increment(node_)));
  const Eigen::Matrix<ad::Dual<3>, 3, 1> f = -(fem::exp_map(phi) * ad::constant<ad::Dual<3>>(fem::Vec3(R_n * g)));
  r.add<3>(block_, fem::Vec3(ad::values(f)));
  const fem::Mat3 J = follower_instant(s) * ad::jacobian(f);
  j.add<3, 3>(block_, rotation_, J);
}

void NodalLoad::add_step_work(const fem::StepState& s, fem::StepWork& w) const {
  fem::Vec3 g = load_over_step(*this, s);
  if (axes_ == LoadAxes::Follower)
    g = fem::exp_map(fem::Vec3(follower_instant(s) * s.rotation_increment(node_))) *
        s.at_start(node_).orientation.toRotationMatrix() * g;
  const fem::Vec3 path = kind_ == LoadKind::Force ? s.increment(node_) : s.rotation_increment(node_);
  w.external_work += g.dot(path);
}

}  // namespace catena::elements
