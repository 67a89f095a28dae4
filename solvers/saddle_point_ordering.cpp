#include "solvers/saddle_point_ordering.hpp"

#include "assembly/ordering.hpp"

#include <algorithm>
#include <tuple>

namespace catena::solvers {

using assembly::check;

namespace {

constexpr const char* ordering_name = "catena_saddle_point";
constexpr const char* attached_name = "catena_saddle_point_order";

/// The MatOrdering PETSc's LU calls: hands back the order attached to the matrix, for rows and
/// columns alike (a symmetric permutation keeps the diagonal on the diagonal).
PetscErrorCode attached_order(Mat matrix, MatOrderingType, IS* rows, IS* columns) {
  PetscObject order = nullptr;
  PetscFunctionBeginUser;
  PetscCall(PetscObjectQuery(reinterpret_cast<PetscObject>(matrix), attached_name, &order));
  PetscCheck(order, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "no saddle-point order attached to the matrix");
  // Two index sets, not one with two references: PETSc's LU preconditioner destroys a row
  // ordering that is its column ordering only once (PCReset_LU), so the second reference would
  // leak the set (LeakSanitizer, tools/asan-test: one per run).
  PetscCall(PetscObjectReference(order));
  *rows = reinterpret_cast<IS>(order);
  PetscCall(ISDuplicate(*rows, columns));
  PetscFunctionReturn(0);
}

}  // namespace

const char* saddle_point_ordering_name() {
  static const bool registered = [] {
    check(MatOrderingRegister(ordering_name, attached_order), "MatOrderingRegister");
    return true;
  }();
  (void)registered;
  return ordering_name;
}

std::vector<PetscInt> saddle_point_order(const assembly::Tableau& tableau) {
  // The blocks and their couplings, as the tableau's pattern has them (assembly/ordering.hpp).
  const fem::UnknownRegistry& registry = tableau.model().registry;
  const assembly::BlockGraph graph = assembly::block_graph(registry);
  const std::size_t vertices = graph.block_of_vertex.size();
  const auto is_multiplier = [&](std::size_t v) {
    return registry.blocks()[static_cast<std::size_t>(graph.block_of_vertex[v])].kind ==
           fem::UnknownKind::Multiplier;
  };
  std::vector<PetscInt> node_index(vertices, -1);
  PetscInt nodes = 0;
  for (std::size_t v = 0; v < vertices; ++v)
    if (!is_multiplier(v)) node_index[v] = nodes++;

  // Node blocks by quotient minimum degree (SPARSPAK's, in PETSc) on their own graph.
  std::vector<PetscInt> position(static_cast<std::size_t>(nodes), 0);
  if (nodes > 0) {
    std::vector<PetscInt> offsets{0}, columns;
    for (std::size_t v = 0; v < vertices; ++v) {
      if (is_multiplier(v)) continue;
      for (const std::int32_t w : graph.neighbours[v])
        if (!is_multiplier(static_cast<std::size_t>(w))) columns.push_back(node_index[static_cast<std::size_t>(w)]);
      columns.push_back(node_index[v]);  // the diagonal, which the graph leaves implicit
      std::sort(columns.begin() + offsets.back(), columns.end());
      offsets.push_back(static_cast<PetscInt>(columns.size()));
    }
    std::vector<PetscScalar> ones(columns.size(), 1.0);
    assembly::Handle<Mat, MatDestroy> adjacency;
    check(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, nodes, nodes, offsets.data(), columns.data(), ones.data(),
                                    adjacency.out()),
          "MatCreateSeqAIJWithArrays");
    assembly::Handle<IS, ISDestroy> row_order, column_order;
    check(MatGetOrdering(adjacency, MATORDERINGQMD, row_order.out(), column_order.out()), "MatGetOrdering");
    const PetscInt* p = nullptr;
    check(ISGetIndices(row_order, &p), "ISGetIndices");
    for (PetscInt k = 0; k < nodes; ++k) position[static_cast<std::size_t>(p[k])] = k;
    check(ISRestoreIndices(row_order, &p), "ISRestoreIndices");
  }

  // Each multiplier block right after the last node block it couples to (one coupled to none,
  // a released joint's λ = 0 rows, first).
  std::vector<std::tuple<PetscInt, int, std::size_t>> keys;
  keys.reserve(vertices);
  for (std::size_t v = 0; v < vertices; ++v) {
    if (!is_multiplier(v)) {
      keys.emplace_back(position[static_cast<std::size_t>(node_index[v])], 0, v);
      continue;
    }
    PetscInt last = -1;
    for (const std::int32_t w : graph.neighbours[v])
      if (!is_multiplier(static_cast<std::size_t>(w)))
        last = std::max(last, position[static_cast<std::size_t>(node_index[static_cast<std::size_t>(w)])]);
    keys.emplace_back(last, 1, v);
  }
  std::sort(keys.begin(), keys.end());
  std::vector<PetscInt> order;
  order.reserve(static_cast<std::size_t>(tableau.n_global()));
  for (const auto& [key, kind, v] : keys)
    for (const fem::Dof d : tableau.global_map().dofs(fem::BlockId{graph.block_of_vertex[v]}))
      if (d != fem::fixed_dof) order.push_back(d);
  return order;
}

void attach_saddle_point_order(Mat matrix, const std::vector<PetscInt>& order) {
  assembly::Handle<IS, ISDestroy> is;
  check(ISCreateGeneral(PETSC_COMM_SELF, static_cast<PetscInt>(order.size()), order.data(), PETSC_COPY_VALUES,
                        is.out()),
        "ISCreateGeneral");
  check(ISSetPermutation(is), "ISSetPermutation");
  check(PetscObjectCompose(reinterpret_cast<PetscObject>(matrix), attached_name, reinterpret_cast<PetscObject>(is.get())),
        "PetscObjectCompose");
}

}  // namespace catena::solvers
