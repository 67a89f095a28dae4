#include "assembly/ordering.hpp"

#include <metis.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace catena::assembly {

BlockGraph block_graph(const fem::UnknownRegistry& registry) {
  BlockGraph g;
  const std::size_t n_blocks = registry.n_blocks();
  g.vertex_of_block.assign(n_blocks, -1);
  for (std::size_t b = 0; b < n_blocks; ++b) {
    const fem::BlockInfo& info = registry.blocks()[b];
    int free = 0;
    for (int c = 0; c < info.size; ++c) free += info.fixed[c] ? 0 : 1;
    if (free == 0) continue;
    g.vertex_of_block[b] = static_cast<std::int32_t>(g.block_of_vertex.size());
    g.block_of_vertex.push_back(static_cast<std::int32_t>(b));
    g.weight.push_back(free);
  }
  g.neighbours.resize(g.block_of_vertex.size());
  for (const std::vector<fem::BlockId>& group : registry.couplings())
    for (const fem::BlockId a : group)
      for (const fem::BlockId b : group) {
        const std::int32_t va = g.vertex_of_block[a.index];
        const std::int32_t vb = g.vertex_of_block[b.index];
        if (va >= 0 && vb >= 0 && va != vb) g.neighbours[va].push_back(vb);
      }
  for (auto& n : g.neighbours) {
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
  }
  return g;
}

PatternSize pattern_size(const BlockGraph& graph) {
  PatternSize size;
  for (std::size_t v = 0; v < graph.weight.size(); ++v) {
    long columns = graph.weight[v];
    for (const std::int32_t n : graph.neighbours[v]) columns += graph.weight[static_cast<std::size_t>(n)];
    size.unknowns += graph.weight[v];
    size.nonzeros += graph.weight[v] * columns;
  }
  return size;
}

namespace {

void check_metis(int status, const char* call) {
  if (status != METIS_OK) throw std::runtime_error(std::string(call) + " failed with status " + std::to_string(status));
}

/// CSR of the subgraph induced by `vertices` (local numbering = position in `vertices`).
struct Csr {
  std::vector<idx_t> xadj{0}, adjncy, vwgt;
};
Csr induced_csr(const BlockGraph& g, const std::vector<std::int32_t>& vertices, std::vector<std::int32_t>& local_of) {
  for (std::size_t i = 0; i < vertices.size(); ++i) local_of[vertices[i]] = static_cast<std::int32_t>(i);
  Csr c;
  for (const std::int32_t v : vertices) {
    for (const std::int32_t n : g.neighbours[v])
      if (local_of[n] >= 0) c.adjncy.push_back(local_of[n]);
    c.xadj.push_back(static_cast<idx_t>(c.adjncy.size()));
    c.vwgt.push_back(g.weight[v]);
  }
  return c;
}

std::vector<std::int32_t> nested_dissection(const BlockGraph& g, const std::vector<std::int32_t>& vertices,
                                            std::vector<std::int32_t>& local_of) {
  std::vector<std::int32_t> ordered = vertices;
  Csr c = induced_csr(g, vertices, local_of);
  idx_t n = static_cast<idx_t>(vertices.size());
  if (n > 2 && !c.adjncy.empty()) {
    std::vector<idx_t> perm(n), iperm(n);
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    check_metis(METIS_NodeND(&n, c.xadj.data(), c.adjncy.data(), c.vwgt.data(), options, perm.data(), iperm.data()),
                "METIS_NodeND");
    for (idx_t i = 0; i < n; ++i) ordered[i] = vertices[perm[i]];  // row i of the permuted matrix
  }
  for (const std::int32_t v : vertices) local_of[v] = -1;
  return ordered;
}

}  // namespace

BlockOrdering order_blocks(const fem::UnknownRegistry& registry, const BlockGraph& g, int n_parts, bool nested) {
  idx_t n_vertices = static_cast<idx_t>(g.block_of_vertex.size());
  std::vector<idx_t> vertex_part(n_vertices, 0);
  if (n_parts > 1 && n_vertices >= n_parts) {
    std::vector<std::int32_t> all(n_vertices), local_of(n_vertices, -1);
    std::iota(all.begin(), all.end(), 0);
    Csr c = induced_csr(g, all, local_of);
    idx_t ncon = 1, parts = n_parts, objval = 0;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_CONTIG] = 0;
    check_metis(METIS_PartGraphKway(&n_vertices, &ncon, c.xadj.data(), c.adjncy.data(), c.vwgt.data(), nullptr,
                                    nullptr, &parts, nullptr, nullptr, options, &objval, vertex_part.data()),
                "METIS_PartGraphKway");
    // METIS may leave a part empty on tiny or disconnected graphs: fall back to contiguous slices.
    std::vector<int> count(n_parts, 0);
    for (const idx_t p : vertex_part) ++count[p];
    if (std::find(count.begin(), count.end(), 0) != count.end())
      for (idx_t v = 0; v < n_vertices; ++v) vertex_part[v] = static_cast<idx_t>((static_cast<long>(v) * n_parts) / n_vertices);
  }
  BlockOrdering out;
  out.part.assign(registry.n_blocks(), 0);
  std::vector<std::int32_t> local_of(n_vertices, -1);
  for (int p = 0; p < n_parts; ++p) {
    std::vector<std::int32_t> vertices;
    for (idx_t v = 0; v < n_vertices; ++v)
      if (vertex_part[v] == p) vertices.push_back(static_cast<std::int32_t>(v));
    for (const std::int32_t v : nested ? nested_dissection(g, vertices, local_of) : vertices) {
      out.order.push_back(fem::BlockId{g.block_of_vertex[v]});
      out.part[g.block_of_vertex[v]] = p;
    }
  }
  return out;
}

}  // namespace catena::assembly
