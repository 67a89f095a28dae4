// The Jacobian's places recorded on the first assembly and replayed after (assembly/
// jacobian_scatter.hpp): the replayed matrix is the recorded one bit for bit, also when an
// element stamps other blocks than it did when recorded.
#include "assembly/tableau.hpp"

#include "elements/point_mass.hpp"
#include "elements/truss.hpp"
#include "support/step_context.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace catena::assembly {
namespace {

using fem::Vec3;

/// Stamps a diagonal block on one of its two nodes, the other one at every other call, and then
/// a coupling block: a stamp whose blocks depend on when it is called.
class AlternatingStamps final : public fem::Element {
 public:
  AlternatingStamps(const fem::AttachedNode& a, const fem::AttachedNode& b)
      : Element("alternating"), a_(a.node.displacement), b_(b.node.displacement) {}
  std::string_view kind() const override { return "alternating"; }
  void declare(fem::UnknownRegistry& registry) override { registry.couple({a_, b_}); }
  void stamp(const fem::StepState&, fem::ResidualSink&, fem::JacobianSink& j) const override {
    const bool odd = calls_++ % 2 == 1;
    j.add<3, 3>(odd ? b_ : a_, odd ? b_ : a_, 2.0 * fem::Mat3::Identity());
    j.add<3, 3>(a_, b_, fem::Mat3::Constant(0.5));
  }

 private:
  fem::BlockId a_, b_;
  mutable int calls_ = 0;
};

/// A chain of trusses with masses, one end fixed, and an element whose stamp alternates.
fem::Model alternating_chain() {
  fem::Model m;
  for (int i = 0; i < 5; ++i) m.add_node("n" + std::to_string(i), Vec3(i, 0.1 * i * i, 0));
  for (int c = 0; c < 3; ++c) m.fix(fem::NodeId{0}, c);
  m.gravity = Vec3(0, 0, -9.81);
  for (int i = 0; i < 5; ++i)
    m.add_element<elements::PointMass>("m" + std::to_string(i), m.attach(fem::NodeId{i}), 1.0 + i);
  for (int i = 0; i + 1 < 5; ++i)
    m.add_element<elements::Truss>("t" + std::to_string(i), m.attach(fem::NodeId{i}), m.attach(fem::NodeId{i + 1}),
                                   elements::TrussSection{1e5},
                                   (m.nodes[i + 1].reference_position - m.nodes[i].reference_position).norm());
  m.add_element<AlternatingStamps>(m.attach(fem::NodeId{1}), m.attach(fem::NodeId{3}));
  m.update_length_scale();
  return m;
}

/// Every value of the owned rows of J, row by row.
std::vector<double> values(Mat J, const Tableau& t) {
  std::vector<double> out;
  for (PetscInt i = t.first_owned(); i < t.first_owned() + t.n_owned(); ++i)
    for (PetscInt j = 0; j < t.n_global(); ++j) {
      PetscScalar v = 0;
      EXPECT_EQ(MatGetValues(J, 1, &i, 1, &j, &v), 0);
      out.push_back(v);
    }
  return out;
}

TEST(JacobianScatter, ReplaysTheRecordedSumsAndFollowsAStampThatChanges) {
  fem::Model m = alternating_chain();
  Tableau t(m, PETSC_COMM_WORLD);
  const fem::StepState context = testing::midpoint_step(m, m.initial_state, 0.0, 1e-2);
  VecHandle x = t.create_vector();
  ASSERT_EQ(VecSet(x, 1e-3), 0);
  // Assemblies 1 and 3 stamp the same blocks (1 records, 3 replays), 2 and 4 the others (their
  // alternating element is assembled by search from its first block on).
  std::vector<std::vector<double>> assembled;
  for (int k = 0; k < 4; ++k) {
    t.assemble_jacobian(context, x, t.jacobian());
    assembled.push_back(values(t.jacobian(), t));
  }
  EXPECT_EQ(assembled[0], assembled[2]);
  EXPECT_EQ(assembled[1], assembled[3]);
  EXPECT_NE(assembled[0], assembled[1]);
  // What the alternating element adds: 2 I on node 1's or node 3's diagonal block.
  const auto row_of = [&](int node, int c) { return t.global_map().dofs(m.nodes[node].displacement)[c]; };
  const auto at = [&](const std::vector<double>& a, PetscInt i, PetscInt j) {
    return a[static_cast<std::size_t>((i - t.first_owned()) * t.n_global() + j)];
  };
  for (int c = 0; c < 3; ++c) {
    const PetscInt r1 = row_of(1, c), r3 = row_of(3, c);
    EXPECT_DOUBLE_EQ(at(assembled[0], r1, r1) - at(assembled[1], r1, r1), 2.0);
    EXPECT_DOUBLE_EQ(at(assembled[1], r3, r3) - at(assembled[0], r3, r3), 2.0);
  }
}

}  // namespace
}  // namespace catena::assembly
