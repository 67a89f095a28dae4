// Co-rotational truss (elements/truss.hpp): tangent, rigid-motion invariance, and the discrete
// energy identity of the Crisfield–Shi midpoint force.
#include "elements/truss.hpp"

#include "support/tangent_check.hpp"

#include <gtest/gtest.h>

namespace catena::elements {
namespace {

using fem::Vec3;
using testing::TrialState;

struct TrussModel {
  fem::Model model;
  Truss* truss = nullptr;
  TrussModel(const Vec3& xa, const Vec3& xb, double EA, double l0) {
    const fem::NodeId a = model.add_node("a", xa);
    const fem::NodeId b = model.add_node("b", xb);
    truss = &model.add_element<Truss>("bar", model.attach(a), model.attach(b), TrussSection{EA}, l0);
  }
};

void set_random_increments(TrialState& s, std::mt19937& rng, double size) {
  std::uniform_real_distribution<double> u(-size, size);
  for (double& x : s.trial) x = u(rng);
}

TEST(Truss, TangentMatchesCentralDifferencesMidpoint) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    TrussModel t(Vec3(0.1, -0.2, 0.3), Vec3(1.3, 0.4, -0.5), 2.0e6, 1.1);
    TrialState s(t.model);
    set_random_increments(s, rng, 0.5);
    const testing::TangentCheck c = testing::compare_with_central_differences(t.model, *t.truss, s);
    EXPECT_LT(c.max_relative_error, 1e-7) << c.worst;
  }
}

TEST(Truss, TangentMatchesCentralDifferencesTrapezoidal) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    TrussModel t(Vec3(0, 0, 0), Vec3(2.0, 1.0, 0.5), 1.0e10, 2.0);
    TrialState s(t.model);
    s.scheme = fem::TimeScheme::Trapezoidal;
    set_random_increments(s, rng, 0.8);
    const testing::TangentCheck c = testing::compare_with_central_differences(t.model, *t.truss, s);
    EXPECT_LT(c.max_relative_error, 1e-7) << c.worst;
  }
}

TEST(Truss, TangentAtTinyIncrementsMatchesCentralDifferences) {
  TrussModel t(Vec3(0, 0, 0), Vec3(3.0443, 0, 0), 1.0e10, 3.0443);
  TrialState s(t.model);
  for (std::size_t i = 0; i < s.trial.size(); ++i) s.trial[i] = 1e-9 * static_cast<double>(i + 1);
  const testing::TangentCheck c = testing::compare_with_central_differences(t.model, *t.truss, s, 1e-8);
  EXPECT_LT(c.max_relative_error, 1e-6) << c.worst;
}

TEST(Truss, RigidMotionGivesZeroForceAndStrainEnergy) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const Vec3 xa(0.3, -1.0, 2.0), xb(2.1, 0.7, -0.4);
    TrussModel t(xa, xb, 1.0e10, (xb - xa).norm());
    TrialState s(t.model);
    // End state: a large rotation about a random axis plus a translation.
    const fem::Mat3 R = testing::random_rotation(rng, 3.1);
    const Vec3 c(5.0, -3.0, 7.0);
    const Vec3 xa1 = R * xa + c, xb1 = R * xb + c;
    for (int i = 0; i < 3; ++i) {
      s.trial[i] = xa1[i] - xa[i];
      s.trial[3 + i] = xb1[i] - xb[i];
    }
    const Eigen::VectorXd r = testing::element_residual(t.model, *t.truss, s);
    // Round-off scale of the force: EA times the relative precision of the lengths.
    EXPECT_LT(r.cwiseAbs().maxCoeff(), 1e10 * 1e-14) << "trial " << trial;
    std::vector<fem::NodeState> end = s.committed;
    end[0].position = xa1;
    end[1].position = xb1;
    fem::StateEnergy e;
    t.truss->add_energy(end, t.model.gravity, e);
    EXPECT_LT(e.strain, 1e-10);
  }
}

TEST(Truss, MidpointWorkEqualsStrainEnergyChange) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    const Vec3 xa(u(rng), u(rng), u(rng)), xb = xa + Vec3(2.0 + u(rng), u(rng), u(rng));
    const double l0 = 1.5 + 0.5 * u(rng);
    const double EA = 3.0e5;
    TrussModel t(xa, xb, EA, l0);
    TrialState s(t.model);
    set_random_increments(s, rng, 0.7);
    const Eigen::VectorXd f = testing::element_residual(t.model, *t.truss, s);
    const Eigen::Map<const Eigen::VectorXd> dq(s.trial.data(), 6);
    fem::StateEnergy w0, w1;
    t.truss->add_energy(s.committed, t.model.gravity, w0);
    std::vector<fem::NodeState> end = s.committed;
    end[0].position += dq.head<3>();
    end[1].position += dq.tail<3>();
    t.truss->add_energy(end, t.model.gravity, w1);
    const double work = f.dot(dq);
    EXPECT_NEAR(work, w1.strain - w0.strain, 1e-12 * std::max(1.0, std::abs(w1.strain) + std::abs(w0.strain)))
        << "trial " << trial;
  }
}

TEST(Truss, TrapezoidalForceDoesNotConserveStrainEnergy) {
  // The end-point average is not a discrete gradient: over a large rotation its work differs
  // from the strain-energy change. This is what makes Newmark lock (Crisfield & Shi, Fig. 3).
  TrussModel t(Vec3(0, 0, 0), Vec3(1, 0, 0), 1.0e6, 0.9);
  TrialState s(t.model);
  s.scheme = fem::TimeScheme::Trapezoidal;
  s.trial = {0, 0, 0, -1.0, 1.05, 0};  // b turns by ~90 degrees and stretches
  const Eigen::VectorXd f = testing::element_residual(t.model, *t.truss, s);
  const Eigen::Map<const Eigen::VectorXd> dq(s.trial.data(), 6);
  fem::StateEnergy w0, w1;
  t.truss->add_energy(s.committed, t.model.gravity, w0);
  std::vector<fem::NodeState> end = s.committed;
  end[1].position += dq.tail<3>();
  t.truss->add_energy(end, t.model.gravity, w1);
  EXPECT_GT(std::abs(f.dot(dq) - (w1.strain - w0.strain)), 1e-3 * w1.strain);
}

TEST(Truss, ZeroLengthTrialIsADomainError) {
  TrussModel t(Vec3(0, 0, 0), Vec3(1, 0, 0), 1.0e6, 1.0);
  TrialState s(t.model);
  s.trial = {0, 0, 0, -1.0, 0, 0};
  EXPECT_THROW(testing::element_residual(t.model, *t.truss, s), fem::DomainError);
}

}  // namespace
}  // namespace catena::elements
