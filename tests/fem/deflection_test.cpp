// Deflection relative to a frame node (fem/deflection.hpp): zero for every node under a rigid
// motion of the whole model about an arbitrary point, whatever the frame node's initial
// orientation; a deformation added on top of a rigid motion is recovered, in global components
// and along the frame's axes; the frame node's own is zero; the local form is what a displacement
// sensor in the frame node's frame reads.
#include "fem/deflection.hpp"
#include "fem/sensor.hpp"
#include "support/node_deflections.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace catena::fem {
namespace {

/// Seven frame nodes at random reference positions and orientations (t = 0).
struct RandomModel {
  std::vector<Node> nodes;
  std::vector<NodeState> initial;
  explicit RandomModel(std::mt19937& rng) {
    std::uniform_real_distribution<double> u(-2.0, 2.0);
    for (int i = 0; i < 7; ++i) {
      const Vec3 X(u(rng), u(rng), u(rng));
      nodes.push_back(Node{"n" + std::to_string(i), NodeKind::Frame, X, {}, {}});
      NodeState s;
      s.position = X;
      s.orientation = Quaternion(Eigen::AngleAxisd(u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()));
      initial.push_back(s);
    }
  }
  /// Every node turned by Q about `pivot`, then translated by t.
  [[nodiscard]] std::vector<NodeState> moved_rigidly(const Quaternion& Q, const Vec3& pivot, const Vec3& t) const {
    std::vector<NodeState> out = initial;
    for (NodeState& s : out) {
      s.position = pivot + Q * (s.position - pivot) + t;
      s.orientation = Q * s.orientation;
    }
    return out;
  }
};

TEST(Deflection, RigidMotionOfTheWholeModelLeavesNone) {
  std::mt19937 rng(18);
  const RandomModel m(rng);
  const Quaternion Q(Eigen::AngleAxisd(2.4, Vec3(0.3, -0.8, 0.5).normalized()));  // 137 degrees
  const Vec3 pivot(7.0, -3.0, 11.0), t(40.0, 25.0, -60.0);
  const std::vector<NodeState> now = m.moved_rigidly(Q, pivot, t);
  for (std::int32_t f = 0; f < 7; ++f) {
    const std::vector<Deflection> d = testing::node_deflections(m.nodes, m.initial, now, NodeId{f});
    ASSERT_EQ(d.size(), m.nodes.size());
    for (const Deflection& di : d) {
      // Round-off of positions of size 100 m: 1e-14 m.
      EXPECT_LT(di.global.norm(), 1e-13) << "frame node " << f;
      EXPECT_LT(di.local.norm(), 1e-13) << "frame node " << f;
    }
  }
}

TEST(Deflection, DeformationOnTopOfARigidMotionIsRecoveredInBothForms) {
  std::mt19937 rng(7);
  const RandomModel m(rng);
  const Quaternion Q(Eigen::AngleAxisd(-1.1, Vec3(1, 2, 3).normalized()));
  std::vector<NodeState> now = m.moved_rigidly(Q, Vec3(1, 1, 1), Vec3(-3, 0.5, 2));
  std::uniform_real_distribution<double> u(-0.1, 0.1);
  const NodeId frame{2};
  std::vector<Vec3> added;
  for (std::size_t i = 0; i < now.size(); ++i) {
    added.push_back(i == 2 ? Vec3::Zero() : Vec3(u(rng), u(rng), u(rng)));
    now[i].position += added.back();
  }
  const std::vector<Deflection> d = testing::node_deflections(m.nodes, m.initial, now, frame);
  const Mat3 R_f = now[2].orientation.toRotationMatrix();
  for (std::size_t i = 0; i < now.size(); ++i) {
    EXPECT_LT((d[i].global - added[i]).norm(), 1e-14) << "node " << i;
    EXPECT_LT((d[i].local - R_f.transpose() * added[i]).norm(), 1e-14) << "node " << i;
  }
  EXPECT_EQ(d[2].global.norm(), 0.0);
  // The local form is the displacement sensor in the frame node's frame.
  for (std::size_t i = 0; i < now.size(); ++i)
    for (int c = 0; c < 3; ++c) {
      Sensor s;
      s.node = NodeId{static_cast<std::int32_t>(i)};
      s.quantity = SensorQuantity::Displacement;
      s.component = c;
      s.frame = SensorFrame(frame);
      EXPECT_NEAR(d[i].local[c], evaluate_sensor(s, m.nodes, now, m.initial), 1e-15) << "node " << i;
    }
}

}  // namespace
}  // namespace catena::fem
