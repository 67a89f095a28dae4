#pragma once
/// Numbering of the tableau's unknown blocks with METIS (Debian's MUMPS and PETSc are built
/// without METIS, so Catena calls it itself): the block graph is split over MPI ranks with
/// METIS_PartGraphKway, and each rank's blocks are ordered with METIS_NodeND for low fill.
#include "fem/unknowns.hpp"

#include <vector>

namespace catena::assembly {

/// Adjacency of blocks: two blocks are adjacent when one element couples them. Only blocks with
/// at least one free component are vertices; every vertex is adjacent to itself implicitly.
struct BlockGraph {
  std::vector<std::int32_t> block_of_vertex;  ///< vertex -> block index
  std::vector<std::int32_t> vertex_of_block;  ///< block -> vertex, -1 when fully fixed
  std::vector<std::vector<std::int32_t>> neighbours;  ///< sorted, without the vertex itself
  std::vector<std::int32_t> weight;                   ///< free components per vertex
};

BlockGraph block_graph(const fem::UnknownRegistry& registry);

/// The size of the Newton system the graph implies: its unknowns (the free components) and the
/// non-zeros of the Jacobian's pattern (each row couples with the free components of its own
/// block and of the block's neighbours). No PETSc call: `catena check` counts without MPI.
struct PatternSize {
  long unknowns = 0;
  long nonzeros = 0;
};
PatternSize pattern_size(const BlockGraph& graph);

struct BlockOrdering {
  std::vector<fem::BlockId> order;  ///< blocks in numbering order (rank 0's first, then rank 1's...)
  std::vector<int> part;            ///< per block: owning rank (fully fixed blocks: 0)
};

/// Partitions the graph into `n_parts` and orders each part by nested dissection (`nested`), or
/// keeps the blocks' own order within each part.
BlockOrdering order_blocks(const fem::UnknownRegistry& registry, const BlockGraph& graph, int n_parts, bool nested);

}  // namespace catena::assembly
