// The step rotation (fem/step_rotation.hpp): the chord identity that makes finite rigid steps
// rigid modes of the midpoint configuration, the half-step rotation, the quaternion of cay(b),
// and the node commit rule.
#include "fem/step_rotation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace catena::fem {
namespace {

Vec3 random_vector(std::mt19937& gen, double size) {
  std::uniform_real_distribution<double> u(-size, size);
  return {u(gen), u(gen), u(gen)};
}

TEST(StepRotation, MovesEveryPointAlongItsMidpointChord) {
  std::mt19937 gen(31);
  for (int k = 0; k < 200; ++k) {
    const Vec3 b = random_vector(gen, k < 100 ? 1e-4 : 6.0), a = random_vector(gen, 3.0);
    const Mat3 C = step_rotation(b);
    EXPECT_LE((C * a - a - b.cross(0.5 * (a + C * a))).norm(), 1e-14 * (1 + b.norm()) * a.norm());
    EXPECT_LE((C * b - b).norm(), 1e-14 * b.norm());  // the axis stays
  }
}

TEST(StepRotation, HalfStepTurnedTwiceIsTheStep) {
  std::mt19937 gen(32);
  for (int k = 0; k < 200; ++k) {
    const Vec3 b = random_vector(gen, k < 100 ? 1e-6 : 20.0);
    const Mat3 H = half_step_rotation(b);
    EXPECT_LE((H * H - step_rotation(b)).cwiseAbs().maxCoeff(), 2e-15);
    EXPECT_LE((H * b - b).norm(), 1e-14 * b.norm());
  }
  EXPECT_LE((half_step_rotation(Vec3::Zero().eval()) - Mat3::Identity()).cwiseAbs().maxCoeff(), 0.0);
}

TEST(StepRotation, QuaternionOfCayleyIsTheSameRotation) {
  std::mt19937 gen(33);
  for (int k = 0; k < 200; ++k) {
    const Vec3 b = random_vector(gen, k < 100 ? 1e-6 : 50.0);
    const Quaternion q = quaternion_from_cayley(b);
    EXPECT_NEAR(q.norm(), 1.0, 1e-15);
    EXPECT_LE((q.toRotationMatrix() - cayley(b)).cwiseAbs().maxCoeff(), 1e-14);
  }
}

TEST(StepRotation, AdvanceFollowsTheMidpointRule) {
  NodeState s;
  s.position = Vec3(1, 2, 3);
  s.velocity = Vec3(0.5, -1, 2);
  s.orientation = Quaternion(Eigen::AngleAxisd(0.7, Vec3(1, 1, 0).normalized()));
  s.angular_velocity = Vec3(0.3, -0.2, 1.5);
  const Vec3 dx(0.1, -0.3, 0.2), b(0.2, 0.1, -0.4);
  const double h = 0.1;
  NodeState e = s;
  advance(e, dx, &b, h, true);
  EXPECT_LE((e.position - s.position - dx).norm(), 1e-15);
  EXPECT_LE((0.5 * (e.velocity + s.velocity) * h - dx).norm(), 1e-15);  // v_m = Δx/h
  // ω_m = b/h in the sense ½(ω_n + cay(b)ᵀ ω_{n+1})... both end values seen in the start axes:
  const Mat3 C = cayley(b);
  EXPECT_LE((0.5 * (s.angular_velocity + C.transpose() * e.angular_velocity) * h - b).norm(), 1e-14);
  EXPECT_LE((e.orientation.toRotationMatrix() - C * s.orientation.toRotationMatrix()).cwiseAbs().maxCoeff(), 1e-14);
  NodeState st = s;
  advance(st, dx, &b, h, false);  // statics: velocities stay
  EXPECT_EQ(st.velocity, s.velocity);
  EXPECT_EQ(st.angular_velocity, s.angular_velocity);
}

}  // namespace
}  // namespace catena::fem
