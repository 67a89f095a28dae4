// The unknown registry and its numberings (DofMap): free components numbered, fixed ones skipped,
// couplings recorded, rows named.
#include "fem/unknowns.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace catena::fem {
namespace {

std::vector<Dof> dofs_of(const DofMap& map, BlockId b) {
  const auto d = map.dofs(b);
  return {d.begin(), d.end()};
}

TEST(DofMap, SequentialNumberingSkipsFixedComponents) {
  UnknownRegistry r;
  const BlockId a = r.add_block("node 'a'", "force", UnknownKind::Displacement, 3);
  const BlockId b = r.add_block("node 'b'", "force", UnknownKind::Displacement, 3);
  const BlockId j = r.add_block("joint 'j'", "reaction", UnknownKind::Multiplier, 6);
  r.fix(b, 1);
  r.fix(j, 3);
  r.fix(j, 4);
  r.fix(j, 5);
  EXPECT_EQ(r.n_free_dofs(), 3 + 2 + 3);
  const DofMap m = r.sequential_numbering();
  EXPECT_EQ(m.n_blocks(), 3U);
  EXPECT_EQ(dofs_of(m, a), (std::vector<Dof>{0, 1, 2}));
  EXPECT_EQ(dofs_of(m, b), (std::vector<Dof>{3, fixed_dof, 4}));
  EXPECT_EQ(dofs_of(m, j), (std::vector<Dof>{5, 6, 7, fixed_dof, fixed_dof, fixed_dof}));
}

TEST(DofMap, NumberingFollowsTheGivenBlockOrder) {
  UnknownRegistry r;
  const BlockId a = r.add_block("node 'a'", "force", UnknownKind::Displacement, 3);
  const BlockId b = r.add_block("node 'b'", "moment", UnknownKind::Rotation, 3);
  const BlockId c = r.add_block("joint 'c'", "reaction", UnknownKind::Multiplier, 2);
  r.fix(a, 0);
  const std::vector<BlockId> order{c, a, b};
  const DofMap m = r.numbering(order);
  EXPECT_EQ(dofs_of(m, c), (std::vector<Dof>{0, 1}));
  EXPECT_EQ(dofs_of(m, a), (std::vector<Dof>{fixed_dof, 2, 3}));
  EXPECT_EQ(dofs_of(m, b), (std::vector<Dof>{4, 5, 6}));
}

TEST(DofMap, TransformedMapsFreeComponentsOnly) {
  UnknownRegistry r;
  const BlockId a = r.add_block("node 'a'", "force", UnknownKind::Displacement, 3);
  r.fix(a, 2);
  const DofMap m = r.sequential_numbering();
  // Every free dof shifted by 10, except dof 1, which becomes fixed.
  const DofMap t = m.transformed([](Dof d) { return d == 1 ? fixed_dof : d + 10; });
  EXPECT_EQ(dofs_of(t, a), (std::vector<Dof>{10, fixed_dof, fixed_dof}));
  EXPECT_EQ(dofs_of(m, a), (std::vector<Dof>{0, 1, fixed_dof}));  // the original is unchanged
}

TEST(UnknownRegistry, RecordsCouplingsAndNamesRows) {
  UnknownRegistry r;
  const BlockId a = r.add_block("node 'a'", "force", UnknownKind::Displacement, 3);
  const BlockId j = r.add_block("joint 'j'", "reaction", UnknownKind::Multiplier, 6);
  const BlockId s = r.add_block("element 's'", "kinematic", UnknownKind::Multiplier, 2);
  r.couple({a, j});
  r.couple({j, s});
  ASSERT_EQ(r.couplings().size(), 2U);
  EXPECT_EQ(r.couplings()[0], (std::vector<BlockId>{a, j}));
  EXPECT_EQ(r.couplings()[1], (std::vector<BlockId>{j, s}));
  EXPECT_EQ(r.block(a).row_name(1), "node 'a' force y");
  EXPECT_EQ(r.block(j).row_name(5), "joint 'j' reaction rz");
  EXPECT_EQ(r.block(s).row_name(1), "element 's' kinematic 2");  // neither 3 nor 6: numbered from 1
  EXPECT_THROW(r.add_block("x", "y", UnknownKind::Displacement, 7), std::logic_error);
}

}  // namespace
}  // namespace catena::fem
