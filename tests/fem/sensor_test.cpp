// Sensors read directly (fem/sensor.hpp): a point carried rigidly by a spinning hub, measured in
// the global frame, in the hub's frame and in a frame offset and turned on the hub, where every
// value is known in closed form; the same point read as the hub's offset; the scale; element fields.
#include "fem/sensor.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <optional>
#include <vector>

namespace catena::fem {
namespace {

constexpr double theta = 0.5;  // the hub's angle about z now [rad]
constexpr double omega = 2.0;  // its angular velocity [rad/s]
constexpr double arm = 3.0;    // the tip's distance from the hub along the hub's x axis [m]

Sensor node_sensor(NodeId node, SensorQuantity quantity, int component, std::optional<SensorFrame> frame = {}) {
  Sensor s;
  s.name = "s";
  s.node = node;
  s.quantity = quantity;
  s.component = component;
  s.frame = std::move(frame);
  return s;
}

/// Node 0, the hub at the origin; node 1, the tip, carried rigidly (same orientation and spin).
struct SpinningHub {
  std::vector<Node> nodes{Node{"hub", NodeKind::Frame, Vec3::Zero(), {}, {}},
                          Node{"tip", NodeKind::Frame, Vec3(arm, 0, 0), {}, {}}};
  std::vector<NodeState> initial{NodeState{}, NodeState{Vec3(arm, 0, 0), Vec3::Zero(), Quaternion::Identity(), Vec3::Zero()}};
  std::vector<NodeState> now;
  SpinningHub() {
    const Quaternion q(Eigen::AngleAxisd(theta, Vec3::UnitZ()));
    const Vec3 w(0, 0, omega);
    const Vec3 r = arm * Vec3(std::cos(theta), std::sin(theta), 0);
    now = {NodeState{Vec3::Zero(), Vec3::Zero(), q, w}, NodeState{r, w.cross(r), q, w}};
  }
  [[nodiscard]] Vec3 read(SensorQuantity quantity, std::optional<SensorFrame> frame = std::nullopt) const {
    Vec3 v;
    for (int c = 0; c < 3; ++c) {
      v[c] = evaluate_sensor(node_sensor(NodeId{1}, quantity, c, frame), nodes, now, initial);
    }
    return v;
  }
};

void expect_near(const Vec3& a, const Vec3& b) { EXPECT_LT((a - b).norm(), 1e-14) << a.transpose() << " vs " << b.transpose(); }

TEST(Sensor, GlobalFrame) {
  const SpinningHub h;
  expect_near(h.read(SensorQuantity::Position), arm * Vec3(std::cos(theta), std::sin(theta), 0));
  expect_near(h.read(SensorQuantity::Displacement), arm * Vec3(std::cos(theta) - 1, std::sin(theta), 0));
  expect_near(h.read(SensorQuantity::Velocity), omega * arm * Vec3(-std::sin(theta), std::cos(theta), 0));
  expect_near(h.read(SensorQuantity::Rotation), Vec3(0, 0, theta));
  expect_near(h.read(SensorQuantity::AngularVelocity), Vec3(0, 0, omega));
  const Sensor w = node_sensor(NodeId{1}, SensorQuantity::Orientation, 3);
  EXPECT_NEAR(evaluate_sensor(w, h.nodes, h.now, h.initial), std::cos(theta / 2), 1e-15);
}

TEST(Sensor, RidingTheHubTheTipStandsStill) {
  const SpinningHub h;
  const SensorFrame hub(NodeId{0});
  expect_near(h.read(SensorQuantity::Position, hub), Vec3(arm, 0, 0));
  expect_near(h.read(SensorQuantity::Displacement, hub), Vec3::Zero());
  expect_near(h.read(SensorQuantity::Velocity, hub), Vec3::Zero());
  expect_near(h.read(SensorQuantity::Rotation, hub), Vec3::Zero());
  expect_near(h.read(SensorQuantity::AngularVelocity, hub), Vec3::Zero());
}

TEST(Sensor, FrameOffsetAndTurnedOnTheHub) {
  // Origin 1 m along the hub's x axis, axes turned a quarter turn about z: the tip, 2 m further
  // along the hub's x axis, lies along the frame's −y axis.
  const SpinningHub h;
  const Mat3 quarter = Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitZ()).toRotationMatrix();
  const SensorFrame f(NodeId{0}, Vec3(1, 0, 0), quarter);
  expect_near(h.read(SensorQuantity::Position, f), Vec3(0, -(arm - 1), 0));
  expect_near(h.read(SensorQuantity::Velocity, f), Vec3::Zero());
  expect_near(h.read(SensorQuantity::Rotation, f), Vec3(0, 0, -std::numbers::pi / 2));
  // A frame fixed in space at (1, 0, 0) with global axes: the global values, shifted.
  const SensorFrame fixed(std::nullopt, Vec3(1, 0, 0), Mat3::Identity());
  expect_near(h.read(SensorQuantity::Position, fixed), h.read(SensorQuantity::Position) - Vec3(1, 0, 0));
  expect_near(h.read(SensorQuantity::Velocity, fixed), h.read(SensorQuantity::Velocity));
}

TEST(Sensor, APointOnTheHubIsTheTip) {
  // The hub's point at offset (arm, 0, 0) in its axes is where the tip is, moving as the tip moves;
  // its rotations are the hub's. In the hub's own frame it stands still.
  const SpinningHub h;
  for (const std::optional<SensorFrame>& frame : {std::optional<SensorFrame>(), std::optional(SensorFrame(NodeId{0}))})
    for (const SensorQuantity q : {SensorQuantity::Position, SensorQuantity::Displacement, SensorQuantity::Velocity,
                                   SensorQuantity::Rotation, SensorQuantity::AngularVelocity}) {
      Vec3 point;
      for (int c = 0; c < 3; ++c) {
        Sensor s = node_sensor(NodeId{0}, q, c, frame);
        s.offset = Vec3(arm, 0, 0);
        point[c] = evaluate_sensor(s, h.nodes, h.now, h.initial);
      }
      expect_near(point, h.read(q, frame));
    }
}

TEST(Sensor, ScaleMultipliesTheValue) {
  const SpinningHub h;
  Sensor s = node_sensor(NodeId{1}, SensorQuantity::Position, 0);
  s.scale = 1.0 / arm;
  EXPECT_NEAR(evaluate_sensor(s, h.nodes, h.now, h.initial), std::cos(theta), 1e-15);
}

/// An element that writes one cell field, the distance between its two nodes.
class Rod final : public Element {
 public:
  Rod() : Element("rod") {}
  std::string_view kind() const override { return "rod"; }
  void declare(UnknownRegistry&) override {}
  void stamp(const StepState&, ResidualSink&, JacobianSink&) const override {}
  void cell_values(std::span<const NodeState> states, CellValueSink& out) const override {
    out.set("length", (states[1].position - states[0].position).norm());
  }
};

TEST(Sensor, ElementFieldOrNaN) {
  const SpinningHub h;
  const Rod rod;
  Sensor s = node_sensor(NodeId{}, SensorQuantity::ElementField, 0);
  s.element = &rod;
  s.field = "length";
  EXPECT_NEAR(evaluate_sensor(s, h.nodes, h.now, h.initial), arm, 1e-15);
  s.field = "axial_force";  // a field the element does not set
  EXPECT_TRUE(std::isnan(evaluate_sensor(s, h.nodes, h.now, h.initial)));
}

}  // namespace
}  // namespace catena::fem
