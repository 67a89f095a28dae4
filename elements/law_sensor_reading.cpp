#include "elements/law_sensor_reading.hpp"

#include "elements/autodiff.hpp"
#include "fem/law.hpp"
#include "fem/sensor_kinematics.hpp"
#include "fem/step_rotation.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

namespace catena::elements {

namespace {

using D = ad::Dual<12>;
using Vec6D = Eigen::Matrix<D, 6, 1>;

/// Node `n` at the reading `how`, its six variables u (Δx, b; or v, ω for Rates) duals (header).
fem::NodeMotionT<D> motion_at(const fem::StepState& s, fem::NodeId n, SensorReading how, double at, const Vec6D& u) {
  const fem::NodeState& start = s.at_start(n);
  const bool frame = s.nodes[n.index].rotation.valid();
  const fem::Mat3 R_n = start.orientation.toRotationMatrix();
  const ad::Vec3T<D> zero = ad::Vec3T<D>::Zero();
  if (how == SensorReading::Rates) {
    const fem::Vec3 b = frame ? s.rotation_increment(n) : fem::Vec3::Zero();
    return {(start.position + s.increment(n)).cast<D>(), (fem::step_rotation(b) * R_n).cast<D>(), u.head<3>(),
            frame ? ad::Vec3T<D>(u.tail<3>()) : zero};
  }
  const ad::Vec3T<D> dx = u.head<3>(), b = u.tail<3>();
  const double path = how == SensorReading::Along ? at : 1.0;
  fem::NodeMotionT<D> m{start.position.cast<D>() + D(path) * dx, R_n.cast<D>(), zero, zero};
  if (frame) m.rotation = fem::step_rotation(ad::Vec3T<D>(D(path) * b)) * R_n.cast<D>();
  if (how == SensorReading::Along) {
    const D inv_h = 1.0 / s.time.h;
    m.velocity = inv_h * dx;
    if (frame) m.angular_velocity = inv_h * b;
  }
  return m;
}

/// The values of node n's variables at the step: (Δx, b), or zero rates.
Eigen::Matrix<double, 6, 1> variables_of(const fem::StepState& s, fem::NodeId n, SensorReading how) {
  Eigen::Matrix<double, 6, 1> u = Eigen::Matrix<double, 6, 1>::Zero();
  if (how == SensorReading::Rates) return u;
  u.head<3>() = s.increment(n);
  if (s.nodes[n.index].rotation.valid()) u.tail<3>() = s.rotation_increment(n);
  return u;
}

/// A rotation read past this angle is too close to the jump of its vector at π (header).
constexpr double largest_rotation = 3.0;

}  // namespace

void LawSensorColumns::set(const fem::LawSensors& table, std::span<const std::size_t> indices) {
  nodes_.clear();
  for (const std::size_t i : indices)
    for (const fem::LawSensorNode& n : table[i].nodes)
      if (std::find(nodes_.begin(), nodes_.end(), n) == nodes_.end()) nodes_.push_back(n);
}

std::vector<fem::BlockId> LawSensorColumns::blocks() const {
  std::vector<fem::BlockId> out;
  for (const fem::LawSensorNode& n : nodes_) {
    out.push_back(n.displacement);
    if (n.rotation.valid()) out.push_back(n.rotation);
  }
  return out;
}

Eigen::Index LawSensorColumns::column_of(fem::NodeId node) const {
  const auto it = std::find_if(nodes_.begin(), nodes_.end(), [&](const fem::LawSensorNode& n) { return n.id.index == node.index; });
  return 6 * static_cast<Eigen::Index>(it - nodes_.begin());
}

double LawSensorColumns::read_field(const fem::LawSensorTerm& term, const fem::StepState& s, SensorReading how,
                                    double at, SensorGradient& gradient) const {
  // Along the step, the straight path from the start's value to the end's, as a joint's law takes
  // its own coordinates; a field of the configuration has no derivative by the rates.
  const fem::FieldOverStep f = term.element->law_field_over_step(term.field, s);
  if (how == SensorReading::Rates) return f.end;
  const double path = how == SensorReading::Along ? at : 1.0;
  for (const auto& [node, d] : f.by_end) gradient.middleCols<6>(column_of(node)) += (term.weight * path) * d;
  return f.start + path * (f.end - f.start);
}

double LawSensorColumns::read(const fem::LawSensors& table, std::size_t index, const fem::StepState& s,
                              SensorReading how, double at, SensorGradient& gradient) const {
  gradient.setZero(size());
  double value = 0.0;
  for (const fem::LawSensorTerm& term : table[index].terms) {
    if (term.element != nullptr) {
      value += term.weight * read_field(term, s, how, at, gradient);
      continue;
    }
    const std::optional<fem::NodeId> frame_node = term.frame ? term.frame->node : std::nullopt;
    Eigen::Matrix<double, 12, 1> x = Eigen::Matrix<double, 12, 1>::Zero();
    x.head<6>() = variables_of(s, term.node, how);
    if (frame_node) x.tail<6>() = variables_of(s, *frame_node, how);
    const Eigen::Matrix<D, 12, 1> u = ad::variables<12>(x);
    const fem::NodeMotionT<D> node = fem::point_motion(motion_at(s, term.node, how, at, u.head<6>()), term.offset);
    std::optional<fem::FrameMotionT<D>> frame;
    if (term.frame) {
      const std::optional<fem::NodeMotionT<D>> carrier =
          frame_node ? std::optional(motion_at(s, *frame_node, how, at, u.tail<6>())) : std::nullopt;
      frame = fem::frame_motion(*term.frame, carrier ? &*carrier : nullptr);
    }
    const ad::Vec3T<D> q = fem::node_quantity(term.quantity, node, frame ? &*frame : nullptr, term.reference);
    if (term.quantity == fem::SensorQuantity::Rotation && q.squaredNorm().value() > largest_rotation * largest_rotation) {
      std::ostringstream message;
      message << "sensor '" << table[index].name << "' reads a rotation of " << std::sqrt(q.squaredNorm().value())
              << " rad, too close to the jump of a rotation vector at pi rad for a law to read it; read a joint's "
                 "coordinate instead (e, rz: tracked through whole turns)";
      throw fem::LawError(message.str());
    }
    const D& y = q[term.component];
    value += term.weight * y.value();
    const Eigen::Index c = column_of(term.node);
    gradient.middleCols<6>(c) += term.weight * y.derivatives().head<6>().transpose();
    if (frame_node) gradient.middleCols<6>(column_of(*frame_node)) += term.weight * y.derivatives().tail<6>().transpose();
  }
  return value;
}

}  // namespace catena::elements
