#include "solvers/saddle_point_ordering.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
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
  PetscCall(PetscObjectReference(order));
  PetscCall(PetscObjectReference(order));
  *rows = reinterpret_cast<IS>(order);
  *columns = reinterpret_cast<IS>(order);
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

std::vector<PetscInt> saddle_point_order(const assembly::Tableau& tableau, Mat jacobian) {
  const fem::DofMap& map = tableau.global_map();
  const auto& blocks = tableau.model().registry.blocks();
  const PetscInt n = tableau.n_global();
  // Groups: the free rows of each block, kept together.
  std::vector<std::vector<PetscInt>> rows;
  std::vector<bool> multiplier;
  std::vector<PetscInt> group_of(static_cast<std::size_t>(n), -1);
  for (std::size_t b = 0; b < map.n_blocks(); ++b) {
    std::vector<PetscInt> r;
    for (const fem::Dof d : map.dofs(fem::BlockId{static_cast<std::int32_t>(b)}))
      if (d != fem::fixed_dof) r.push_back(d);
    if (r.empty()) continue;
    for (const PetscInt row : r) group_of[static_cast<std::size_t>(row)] = static_cast<PetscInt>(rows.size());
    rows.push_back(std::move(r));
    multiplier.push_back(blocks[b].kind == fem::UnknownKind::Multiplier);
  }
  const std::size_t groups = rows.size();
  if (std::any_of(group_of.begin(), group_of.end(), [](PetscInt g) { return g < 0; }))
    throw std::logic_error("saddle_point_order: a tableau row belongs to no block");

  // The matrix pattern, coarsened to groups: node–node edges for the fill-reducing order, and
  // for each multiplier group the node groups it couples to.
  PetscInt m = 0;
  const PetscInt *ia = nullptr, *ja = nullptr;
  PetscBool done = PETSC_FALSE;
  check(MatGetRowIJ(jacobian, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done), "MatGetRowIJ");
  if (!done || m != n) throw std::logic_error("saddle_point_order: the matrix gives no row structure");
  std::vector<PetscInt> node_index(groups, -1);
  PetscInt nodes = 0;
  for (std::size_t g = 0; g < groups; ++g)
    if (!multiplier[g]) node_index[g] = nodes++;
  std::vector<std::vector<PetscInt>> neighbours(groups);
  for (std::size_t g = 0; g < groups; ++g) {
    std::vector<PetscInt>& out = neighbours[g];
    for (const PetscInt row : rows[g])
      for (PetscInt k = ia[row]; k < ia[row + 1]; ++k) {
        const PetscInt h = group_of[static_cast<std::size_t>(ja[k])];
        if (!multiplier[static_cast<std::size_t>(h)]) out.push_back(node_index[static_cast<std::size_t>(h)]);
      }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  check(MatRestoreRowIJ(jacobian, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done), "MatRestoreRowIJ");

  // Node groups by quotient minimum degree (SPARSPAK's, in PETSc) on their graph.
  std::vector<PetscInt> position(static_cast<std::size_t>(nodes), 0);
  if (nodes > 0) {
    std::vector<PetscInt> offsets{0}, columns;
    for (std::size_t g = 0; g < groups; ++g) {
      if (multiplier[g]) continue;
      columns.insert(columns.end(), neighbours[g].begin(), neighbours[g].end());
      offsets.push_back(static_cast<PetscInt>(columns.size()));
    }
    std::vector<PetscScalar> ones(columns.size(), 1.0);
    assembly::Handle<Mat, MatDestroy> graph;
    check(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, nodes, nodes, offsets.data(), columns.data(), ones.data(),
                                    graph.out()),
          "MatCreateSeqAIJWithArrays");
    assembly::Handle<IS, ISDestroy> row_order, column_order;
    check(MatGetOrdering(graph, MATORDERINGQMD, row_order.out(), column_order.out()), "MatGetOrdering");
    const PetscInt* p = nullptr;
    check(ISGetIndices(row_order, &p), "ISGetIndices");
    for (PetscInt k = 0; k < nodes; ++k) position[static_cast<std::size_t>(p[k])] = k;
    check(ISRestoreIndices(row_order, &p), "ISRestoreIndices");
  }

  // Each multiplier group right after the last node group it couples to (one coupled to none,
  // a released joint's λ = 0 rows, first).
  std::vector<std::tuple<PetscInt, int, std::size_t>> keys;
  keys.reserve(groups);
  for (std::size_t g = 0; g < groups; ++g) {
    if (!multiplier[g]) {
      keys.emplace_back(position[static_cast<std::size_t>(node_index[g])], 0, g);
      continue;
    }
    PetscInt last = -1;
    for (const PetscInt h : neighbours[g]) last = std::max(last, position[static_cast<std::size_t>(h)]);
    keys.emplace_back(last, 1, g);
  }
  std::sort(keys.begin(), keys.end());
  std::vector<PetscInt> order;
  order.reserve(static_cast<std::size_t>(n));
  for (const auto& [key, kind, g] : keys) order.insert(order.end(), rows[g].begin(), rows[g].end());
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
