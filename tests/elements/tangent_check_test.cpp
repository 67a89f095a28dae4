// The tangent check itself: it must catch a wrong Jacobian entry and name its row and column the
// way solver messages do, so that a failing element test says where its derivative is wrong.
#include "support/tangent_check.hpp"

#include <gtest/gtest.h>

namespace catena::testing {
namespace {

/// A linear coupling r_b = K Δx_a whose stamped Jacobian has one wrong entry: ∂r_b,y/∂Δx_a,y.
class WrongEntry final : public fem::Element {
 public:
  WrongEntry(fem::BlockId a, fem::BlockId b) : Element("wrong"), a_(a), b_(b) {}
  std::string_view kind() const override { return "wrong_entry"; }
  void declare(fem::UnknownRegistry& registry) override { registry.couple({a_, b_}); }
  void stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const override {
    const fem::Mat3 K = fem::Vec3(1.0, 2.0, 3.0).asDiagonal();
    r.add(b_, fem::Vec3(K * s.values<3>(a_)));
    fem::Mat3 wrong = K;
    wrong(1, 1) = 2.5;
    j.add(b_, a_, wrong);
  }

 private:
  fem::BlockId a_, b_;
};

TEST(TangentCheck, NamesTheRowAndColumnOfTheWorstEntry) {
  fem::Model m;
  const fem::NodeId a = m.add_node("a", fem::Vec3::Zero());
  const fem::NodeId b = m.add_node("b", fem::Vec3(1, 0, 0));
  const auto& e = m.add_element<WrongEntry>(m.nodes[a.index].displacement, m.nodes[b.index].displacement);
  TrialState s(m);
  s.trial = {0.1, -0.2, 0.3, 0.0, 0.0, 0.0};
  const TangentCheck c = compare_with_central_differences(m, e, s);
  EXPECT_NEAR(c.max_relative_error, 0.5 / 3.0, 1e-6);  // |2.5 − 2| over the largest entry, 3
  EXPECT_EQ(c.worst.rfind("row node 'b' force y, column of node 'a' force y: analytic 2.5", 0), 0U) << c.worst;
}

}  // namespace
}  // namespace catena::testing
