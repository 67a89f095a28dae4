#include "elements/nodal_load.hpp"

#include "elements/autodiff.hpp"
#include "elements/step_quadrature.hpp"
#include "fem/step_rotation.hpp"

#include <algorithm>
#include <sstream>

namespace catena::elements {

namespace {

/// The number of motion variables a load of `kind` reads (nodal_load_variables).
std::size_t motion_variable_count(LoadKind kind) {
  return kind == LoadKind::Force ? nodal_force_variable_count : nodal_load_variables.size();
}

/// Whether a law of `laws` reads a variable among nodal_load_variables[first, last).
bool laws_read(const LoadLaws& laws, std::size_t first, std::size_t last) {
  return std::any_of(laws.components.begin(), laws.components.end(), [&](const std::optional<LoadLaw>& c) {
    if (!c) return false;
    for (std::size_t i = first; i < std::min(last, c->law.variables().size() - c->sensors.size() - c->inputs.size()); ++i)
      if (c->law.uses(i)) return true;
    return false;
  });
}

}  // namespace

NodalLoad::NodalLoad(std::string name, const fem::AttachedNode& node, std::array<fem::Expression, 3> values,
                     LoadKind kind, LoadAxes axes, double scale, const fem::Quaternion& reference, LoadLaws laws)
    : Element(std::move(name)),
      node_(node.id),
      block_(kind == LoadKind::Force ? node.node.displacement : node.node.rotation),
      displacement_(node.node.displacement),
      rotation_(node.node.rotation),
      values_(std::move(values)),
      kind_(kind),
      axes_(axes),
      scale_(scale),
      reference_(reference.toRotationMatrix()),
      laws_(std::move(laws)) {
  const std::string who = "load '" + this->name() + "': ";
  if (axes == LoadAxes::Semitangential && kind != LoadKind::Moment)
    throw std::invalid_argument(who + "only moments can be semitangential");
  if ((kind == LoadKind::Moment || axes == LoadAxes::Follower) && !rotation_.valid())
    throw std::invalid_argument(who + "node '" + node.node.name +
                                "' is not a frame node; moments and follower loads need one");
  for (const std::optional<LoadLaw>& c : laws_.components) {
    if (!c) continue;
    if (axes != LoadAxes::Global) throw std::invalid_argument(who + "laws of the motion act on dead loads only");
    if (c->inputs.size() > fem::max_law_inputs || (!c->inputs.empty() && !laws_.inputs) ||
        c->sensors.size() > fem::max_law_inputs || (!c->sensors.empty() && !laws_.law_sensors) ||
        c->law.variables().size() != motion_variable_count(kind) + c->sensors.size() + c->inputs.size())
      throw std::invalid_argument(who + "a law of the motion must read the " +
                                  (kind == LoadKind::Force ? "force" : "moment") + "'s variables and at most " +
                                  std::to_string(fem::max_law_inputs) + " of the model's sensors and inputs each");
  }
  reads_translation_ = laws_read(laws_, 0, nodal_force_variable_count);
  reads_rotation_ = laws_read(laws_, nodal_force_variable_count, nodal_load_variables.size());
}

void NodalLoad::declare(fem::UnknownRegistry& registry) {
  if (axes_ == LoadAxes::Follower && kind_ == LoadKind::Force) registry.couple({block_, rotation_});
  else if (reads_translation_ && kind_ == LoadKind::Moment) registry.couple({block_, displacement_});
  else registry.couple({block_});
}

std::vector<fem::BlockId> NodalLoad::couple_law_sensors() {
  std::vector<std::size_t> sensors;
  for (const std::optional<LoadLaw>& c : laws_.components)
    if (c) sensors.insert(sensors.end(), c->sensors.begin(), c->sensors.end());
  if (sensors.empty()) return {};
  sensor_columns_.set(*laws_.law_sensors, sensors);
  std::vector<fem::BlockId> blocks = sensor_columns_.blocks();
  blocks.insert(blocks.begin(), block_);
  return blocks;
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

fem::Vec3 NodalLoad::laws_at(const fem::StepState& s, SensorReading how, double at, const Motion& motion,
                             LawGradient& d) const {
  constexpr std::size_t n = nodal_load_variables.size();
  std::array<double, n + 2 * fem::max_law_inputs> x{};
  for (std::size_t i = 0; i < 3; ++i) {
    x[i] = motion.x[static_cast<Eigen::Index>(i)];
    x[3 + i] = motion.v[static_cast<Eigen::Index>(i)];
    x[7 + i] = motion.w[static_cast<Eigen::Index>(i)];
  }
  const double speed = motion.v.norm();
  x[6] = speed;
  const bool rates = how != SensorReading::End;
  const double t = how == SensorReading::Along ? s.time.t_n + at * s.time.h : s.time.t_end();
  const std::size_t m = motion_variable_count(kind_);
  fem::Vec3 F = fem::Vec3::Zero();
  d = {};
  d.by_sensors.setZero(3, sensor_columns_.size());
  for (int k = 0; k < 3; ++k) {
    const std::optional<LoadLaw>& c = laws_.components[static_cast<std::size_t>(k)];
    if (!c) continue;
    // The sensors and inputs follow the motion's variables (over a force's unused w).
    const std::size_t differentiated = m + c->sensors.size();
    std::array<SensorGradient, fem::max_law_inputs> by_columns;
    for (std::size_t i = 0; i < c->sensors.size(); ++i)
      x[m + i] = sensor_columns_.read(*laws_.law_sensors, c->sensors[i], s, how, at, by_columns[i]);
    for (std::size_t i = 0; i < c->inputs.size(); ++i) x[differentiated + i] = laws_.inputs->held(c->inputs[i], s.time.t_n);
    std::array<double, n + fem::max_law_inputs> g{};
    F[k] = c->law.evaluate(t, std::span<const double>(x.data(), differentiated + c->inputs.size()),
                           std::span<double>(g.data(), differentiated));
    for (std::size_t i = 0; i < c->sensors.size(); ++i) d.by_sensors.row(k) += g[m + i] * by_columns[i];
    for (int i = 0; i < 3; ++i) {
      d.by_x(k, i) = g[static_cast<std::size_t>(i)];
      if (!rates) continue;
      d.by_v(k, i) = g[static_cast<std::size_t>(3 + i)];
      if (m == n) d.by_w(k, i) = g[static_cast<std::size_t>(7 + i)];
    }
    if (!rates) continue;
    // ∂speed/∂v = v/|v|; at rest the zero element of its generalized gradient (header).
    d.by_speed[k] = g[6];
    if (speed > 0.0) d.by_v.row(k) += (g[6] / speed) * motion.v.transpose();
  }
  d.by_x *= scale_;
  d.by_v *= scale_;
  d.by_w *= scale_;
  d.by_speed *= scale_;
  d.by_sensors *= scale_;
  return scale_ * F;
}

NodalLoad::LawsOverStep NodalLoad::laws_over_step(const fem::StepState& s) const {
  LawsOverStep out;
  out.by_sensors.setZero(3, sensor_columns_.size());
  if (std::none_of(laws_.components.begin(), laws_.components.end(), [](const auto& c) { return c.has_value(); }))
    return out;
  const fem::Vec3 x_n = s.at_start(node_).position;
  const fem::Vec3 dx = s.increment(node_);
  LawGradient d;
  if (s.time.is_static()) {
    out.value = laws_at(s, SensorReading::End, 1.0, {x_n + dx, fem::Vec3::Zero(), fem::Vec3::Zero()}, d);
    out.by_displacement = d.by_x;
    out.by_sensors = d.by_sensors;
    return out;
  }
  const double h = s.time.h;
  Motion motion{x_n, dx / h, fem::Vec3::Zero()};
  if (kind_ == LoadKind::Moment) motion.w = s.rotation_increment(node_) / h;
  for (std::size_t q = 0; q < step_quadrature::points.size(); ++q) {
    const double sq = step_quadrature::points[q], wq = step_quadrature::weights[q];
    motion.x = x_n + sq * dx;
    out.value += wq * laws_at(s, SensorReading::Along, sq, motion, d);
    out.by_displacement += wq * (sq * d.by_x + d.by_v / h);
    out.by_rotation += (wq / h) * d.by_w;
    out.by_sensors += wq * d.by_sensors;
  }
  return out;
}

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
    const LawsOverStep laws = laws_over_step(s);
    r.add<3>(block_, fem::Vec3(-(g + laws.value)));
    if (reads_translation_) j.add<3, 3>(block_, displacement_, fem::Mat3(-laws.by_displacement));
    if (reads_rotation_) j.add<3, 3>(block_, rotation_, fem::Mat3(-laws.by_rotation));
    if (!sensor_columns_.empty()) sensor_columns_.add_to(j, block_, SensorJacobian<3>(-laws.by_sensors));
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
  else g += laws_over_step(s).value;
  const fem::Vec3 path = kind_ == LoadKind::Force ? s.increment(node_) : s.rotation_increment(node_);
  w.external_work += g.dot(path);
}

void NodalLoad::stamp_rates(const fem::StepState& s, fem::JacobianSink&, fem::JacobianSink& damping) const {
  if (!reads_translation_ && !reads_rotation_ && sensor_columns_.empty()) return;
  // The row −F(x, v, w, y) about the state, rates zero: −∂F/∂v, −∂F/∂w and, through the sensors,
  // −∂F/∂y ∂y/∂(v, ω) multiply the rates.
  LawGradient d;
  static_cast<void>(
      laws_at(s, SensorReading::Rates, 1.0, {s.position_end(node_), fem::Vec3::Zero(), fem::Vec3::Zero()}, d));
  // A law whose derivative by speed is not zero at rest has no linearization there (header).
  for (int k = 0; k < 3; ++k) {
    if (d.by_speed[k] == 0.0) continue;
    const fem::Law& law = laws_.components[static_cast<std::size_t>(k)]->law;
    std::ostringstream message;
    message << law.place() << ": the law '" << law.text()
            << "' has no linearization at rest: its derivative by speed is " << d.by_speed[k] / scale_
            << " there, and speed = |v| has no direction at v = 0; a linearized analysis needs a law whose derivative "
               "by speed vanishes at rest (-c*speed*vx), or a velocity component (vx) for a motion along an axis";
    throw fem::LawError(message.str());
  }
  if (reads_translation_) damping.add<3, 3>(block_, displacement_, fem::Mat3(-d.by_v));
  if (reads_rotation_) damping.add<3, 3>(block_, rotation_, fem::Mat3(-d.by_w));
  if (!sensor_columns_.empty()) sensor_columns_.add_to(damping, block_, SensorJacobian<3>(-d.by_sensors));
}

}  // namespace catena::elements
