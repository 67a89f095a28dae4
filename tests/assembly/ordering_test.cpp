// The block graph, its pattern size and METIS's partitions and orders (assembly/ordering.hpp),
// read directly on a path of blocks, where every answer is known: the graph of a chain, its
// non-zeros counted by hand, a cut of one edge into two halves, a separator inside the path.
#include "assembly/ordering.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace catena::assembly {
namespace {

/// `n` blocks of 3 components coupled in a path 0 – 1 – … – n−1, plus one fully fixed block
/// coupled with block 0 (a support), registered second.
struct PathOfBlocks {
  fem::UnknownRegistry registry;
  std::vector<fem::BlockId> blocks;
  fem::BlockId fixed;
  explicit PathOfBlocks(int n) {
    for (int k = 0; k < n; ++k) {
      blocks.push_back(registry.add_block("node 'n" + std::to_string(k) + "'", "force", fem::UnknownKind::Displacement, 3));
      if (k == 0) {
        fixed = registry.add_block("node 'ground'", "force", fem::UnknownKind::Displacement, 3);
        for (int c = 0; c < 3; ++c) registry.fix(fixed, c);
        registry.couple({blocks[0], fixed});
      }
    }
    for (int k = 0; k + 1 < n; ++k) registry.couple({blocks[k], blocks[k + 1]});
  }
};

std::vector<std::int32_t> sorted_indices(const std::vector<fem::BlockId>& order) {
  std::vector<std::int32_t> v;
  for (const fem::BlockId b : order) v.push_back(b.index);
  std::sort(v.begin(), v.end());
  return v;
}

TEST(Ordering, BlockGraphOfAPathLeavesFixedBlocksOut) {
  const PathOfBlocks p(4);
  const BlockGraph g = block_graph(p.registry);
  ASSERT_EQ(g.block_of_vertex.size(), 4U);
  EXPECT_EQ(g.vertex_of_block[p.fixed.index], -1);
  const std::int32_t middle = g.vertex_of_block[p.blocks[1].index];
  std::vector<std::int32_t> expected{g.vertex_of_block[p.blocks[0].index], g.vertex_of_block[p.blocks[2].index]};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(g.neighbours[middle], expected);
  EXPECT_EQ(g.neighbours[g.vertex_of_block[p.blocks[0].index]].size(), 1U);  // the fixed block is no neighbour
  for (const std::int32_t w : g.weight) EXPECT_EQ(w, 3);
}

TEST(Ordering, PatternSizeCountsEveryCoupledComponent) {
  // n blocks of 3: 3n unknowns; each row couples with its own 3 and 3 per neighbour: end blocks
  // 6 columns, inner ones 9.
  const int n = 10;
  const PatternSize s = pattern_size(block_graph(PathOfBlocks(n).registry));
  EXPECT_EQ(s.unknowns, 3L * n);
  EXPECT_EQ(s.nonzeros, 3L * (2 * 6 + (n - 2) * 9));
}

TEST(Ordering, OnePartKeepsTheBlocksOwnOrder) {
  const PathOfBlocks p(6);
  const BlockOrdering o = order_blocks(p.registry, block_graph(p.registry), 1, false);
  EXPECT_EQ(o.order, p.blocks);
  for (const int part : o.part) EXPECT_EQ(part, 0);
}

TEST(Ordering, NestedDissectionOrdersASeparatorLast) {
  // On a path, nested dissection numbers a vertex that splits it last: never an end.
  const int n = 41;
  const PathOfBlocks p(n);
  const BlockOrdering o = order_blocks(p.registry, block_graph(p.registry), 1, true);
  ASSERT_EQ(o.order.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(sorted_indices(o.order), sorted_indices(p.blocks));  // a permutation of the free blocks
  EXPECT_NE(o.order.back(), p.blocks.front());
  EXPECT_NE(o.order.back(), p.blocks.back());
}

TEST(Ordering, TwoPartsCutThePathOnceIntoHalves) {
  const int n = 40;
  const PathOfBlocks p(n);
  const BlockOrdering o = order_blocks(p.registry, block_graph(p.registry), 2, false);
  ASSERT_EQ(o.order.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(sorted_indices(o.order), sorted_indices(p.blocks));
  // Rank 0's blocks first, then rank 1's.
  for (std::size_t k = 1; k < o.order.size(); ++k) EXPECT_LE(o.part[o.order[k - 1].index], o.part[o.order[k].index]);
  int in_part_1 = 0, cut = 0;
  for (int k = 0; k < n; ++k) {
    in_part_1 += o.part[p.blocks[k].index];
    if (k + 1 < n) cut += o.part[p.blocks[k].index] != o.part[p.blocks[k + 1].index];
  }
  EXPECT_NEAR(in_part_1, n / 2, n / 10);
  EXPECT_EQ(cut, 1);
}

}  // namespace
}  // namespace catena::assembly
