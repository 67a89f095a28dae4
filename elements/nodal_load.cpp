#include "elements/nodal_load.hpp"

#include "elements/autodiff.hpp"
#include "fem/step_rotation.hpp"

namespace catena::elements {

NodalLoad::NodalLoad(std::string name, const fem::AttachedNode& node, std::array<fem::Expression, 3> values,
                     LoadKind kind, LoadAxes axes, double scale, const fem::Quaternion& reference)
    : Element(std::move(name)),
      node_(node.id),
      block_(kind == LoadKind::Force ? node.node.displacement : node.node.rotation),
      rotation_(node.node.rotation),
      values_(std::move(values)),
      kind_(kind),
      axes_(axes),
      scale_(scale),
      reference_(reference.toRotationMatrix()) {
  if (axes == LoadAxes::Semitangential && kind != LoadKind::Moment)
    throw std::invalid_argument("load '" + this->name() + "': only moments can be semitangential");
  if ((kind == LoadKind::Moment || axes == LoadAxes::Follower) && !rotation_.valid())
    throw std::invalid_argument("load '" + this->name() + "': node '" + node.node.name +
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
  if (s.time.is_static()) return s.time.external_load_factor() * load.value(s.time.t_end());
  return 0.5 * (load.value(s.time.t_n) + load.value(s.time.t_end()));
}

/// The node's rotation over the part of the step at which follower axes are taken: the middle
/// (dynamics), or the end (statics).
template <class T>
fem::Mat3T<T> follower_rotation(const fem::StepState& s, const fem::Vec3T<T>& b) {
  return s.time.is_static() ? fem::step_rotation(b) : fem::half_step_rotation(b);
}

}  // namespace

namespace {

/// Rotation vector of the node's rotation from its reference, after the step b.
template <class T>
fem::Vec3T<T> rotation_from_reference(const fem::StepState& s, fem::NodeId node, const fem::Mat3& reference,
                                      const fem::Vec3T<T>& b) {
  const fem::Mat3 start = s.at_start(node).orientation.toRotationMatrix() * reference.transpose();
  return fem::log_map<T>(fem::Mat3T<T>(fem::cayley(b) * start.cast<T>()));
}

/// The semitangential moment's row (header) for the step b.
template <class T>
fem::Vec3T<T> semitangential_row(const fem::StepState& s, fem::NodeId node, const fem::Mat3& reference,
                                 const fem::Vec3& m, const fem::Vec3T<T>& b) {
  const fem::Vec3T<T> psi = rotation_from_reference(s, node, reference, b);
  // −m · ψ jumps where ψ wraps (at π): past 3 rad the potential is not defined.
  if (fem::scalar_value(psi.squaredNorm()) > 9.0)
    throw fem::DomainError("semitangential moment: the node has turned by more than 3 rad from its reference");
  const fem::Vec3T<T> mt = m.cast<T>();
  // Static rows are spatial moment balances (as the beam's are): the moment T(ψ)⁻ᵀ m itself.
  if (s.time.is_static()) return -(fem::tangent_exp_inverse(psi).transpose() * mt);
  const fem::Vec3 psi_n = rotation_from_reference(s, node, reference, fem::Vec3(fem::Vec3::Zero()));
  const fem::Vec3T<T> psi_m = T(0.5) * (psi + psi_n.cast<T>());
  // Gradient at the middle of the step (Cayley: b/2 is not the half step, but any consistent
  // gradient will do) corrected along b so that g · b = −m · Δψ.
  fem::Vec3T<T> g = -(fem::tangent_cayley(fem::Vec3T<T>(T(0.5) * b)).transpose() *
                      fem::tangent_exp_inverse(psi_m).transpose() * mt);
  const T bb = b.squaredNorm();
  if (fem::scalar_value(bb) > 1e-24) g += ((-(mt.dot(psi - psi_n.cast<T>())) - g.dot(b)) / bb) * b;
  return g;
}

}  // namespace

void NodalLoad::stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const {
  const fem::Vec3 g = load_over_step(*this, s);
  if (axes_ == LoadAxes::Semitangential) {
    const auto b = ad::variables<3>(s.rotation_increment(node_));
    const fem::Vec3T<ad::Dual<3>> f = semitangential_row(s, node_, reference_, g, b);
    r.add<3>(block_, fem::Vec3(ad::values(f)));
    j.add<3, 3>(block_, block_, fem::Mat3(ad::jacobian(f)));
    return;
  }
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
  if (axes_ == LoadAxes::Semitangential) {
    w.external_work -= semitangential_row(s, node_, reference_, g, s.rotation_increment(node_)).dot(s.rotation_increment(node_));
    return;
  }
  if (axes_ == LoadAxes::Follower)
    g = follower_rotation(s, s.rotation_increment(node_)) * s.at_start(node_).orientation.toRotationMatrix() * g;
  const fem::Vec3 path = kind_ == LoadKind::Force ? s.increment(node_) : s.rotation_increment(node_);
  w.external_work += g.dot(path);
}

}  // namespace catena::elements
