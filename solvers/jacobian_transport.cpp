#include "solvers/jacobian_transport.hpp"

#include "fem/step_rotation.hpp"

#include <algorithm>
#include <map>

namespace catena::solvers {

using assembly::check;

JacobianTransport::JacobianTransport(const assembly::Tableau& tableau) : tableau_(&tableau), comm_(tableau.comm()) {
  int ranks = 1;
  MPI_Comm_size(comm_, &ranks);
  const fem::Model& model = tableau.model();
  const fem::DofMap& map = tableau.global_map();
  const PetscInt first = tableau.first_owned(), last = first + tableau.n_owned();
  const auto owned = [&](fem::Dof d) { return d != fem::fixed_dof && d >= first && d < last; };

  // The nodes that can turn (a free rotation component), numbered in node order for saved().
  std::vector<std::ptrdiff_t> saved_index(model.nodes.size(), -1);
  for (std::size_t n = 0; n < model.nodes.size(); ++n) {
    const fem::Node& node = model.nodes[n];
    if (node.kind != fem::NodeKind::Frame) continue;
    const auto dofs = map.dofs(node.rotation);
    if (std::any_of(dofs.begin(), dofs.end(), [](fem::Dof d) { return d != fem::fixed_dof; }))
      saved_index[n] = static_cast<std::ptrdiff_t>(n_saved_++);
  }

  // The owned triples of every block that turns with such a node.
  std::map<std::size_t, std::size_t> node_slot;  // model node -> index into nodes_
  std::vector<PetscInt> needed;                  // global rotation dofs to read
  const auto& blocks = model.registry.blocks();
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const fem::BlockInfo& info = blocks[b];
    if (!info.turns_with || saved_index[static_cast<std::size_t>(info.turns_with->index)] < 0) continue;
    const auto n = static_cast<std::size_t>(info.turns_with->index);
    const auto dofs = map.dofs(fem::BlockId{static_cast<std::int32_t>(b)});
    for (int t = 0; t + 3 <= info.size; t += 3) {
      Triple triple{};
      bool any = false;
      for (int i = 0; i < 3; ++i) {
        const fem::Dof d = dofs[static_cast<std::size_t>(t + i)];
        triple.rows[static_cast<std::size_t>(i)] = owned(d) ? d - first : -1;
        any = any || owned(d);
      }
      if (!any) continue;
      auto [slot, added] = node_slot.try_emplace(n, nodes_.size());
      if (added) {
        TurningNode tn;
        tn.node = n;
        tn.saved_index = static_cast<std::size_t>(saved_index[n]);
        const auto rotation = map.dofs(model.nodes[n].rotation);
        for (int i = 0; i < 3; ++i) {
          const fem::Dof d = rotation[static_cast<std::size_t>(i)];
          tn.owner = tn.owner || owned(d);
          if (d == fem::fixed_dof) {
            tn.rotation_values[static_cast<std::size_t>(i)] = -1;
          } else if (ranks == 1) {
            tn.rotation_values[static_cast<std::size_t>(i)] = d;  // read straight from u
          } else {
            tn.rotation_values[static_cast<std::size_t>(i)] = static_cast<PetscInt>(needed.size());
            needed.push_back(d);
          }
        }
        nodes_.push_back(tn);
      }
      triple.node = slot->second;
      triples_.push_back(triple);
    }
  }
  if (ranks > 1) {
    const auto n_needed = static_cast<PetscInt>(needed.size());
    check(VecCreateSeq(PETSC_COMM_SELF, n_needed, rotation_values_.out()), "VecCreateSeq");
    assembly::ISHandle from, to;
    check(ISCreateGeneral(PETSC_COMM_SELF, n_needed, needed.data(), PETSC_COPY_VALUES, from.out()), "ISCreateGeneral");
    check(ISCreateStride(PETSC_COMM_SELF, n_needed, 0, 1, to.out()), "ISCreateStride");
    const assembly::VecHandle layout = tableau.create_vector();
    check(VecScatterCreate(layout, from, rotation_values_, to, scatter_.out()), "VecScatterCreate");
  }
  at_jacobian_.resize(nodes_.size());
  turn_.resize(nodes_.size());
}

void JacobianTransport::step_rotations(Vec u, std::vector<fem::Mat3>& out) {
  Vec source = u;
  if (scatter_) {
    check(VecScatterBegin(scatter_, u, rotation_values_, INSERT_VALUES, SCATTER_FORWARD), "VecScatterBegin");
    check(VecScatterEnd(scatter_, u, rotation_values_, INSERT_VALUES, SCATTER_FORWARD), "VecScatterEnd");
    source = rotation_values_;
  }
  const PetscScalar* values = nullptr;
  check(VecGetArrayRead(source, &values), "VecGetArrayRead");
#pragma omp parallel for schedule(static) num_threads(threads())
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    const TurningNode& n = nodes_[k];
    fem::Vec3 b = fem::Vec3::Zero();
    for (std::size_t i = 0; i < 3; ++i)
      if (n.rotation_values[i] >= 0) b[static_cast<Eigen::Index>(i)] = values[n.rotation_values[i]];
    out[k] = fem::step_rotation<double>(b);
  }
  check(VecRestoreArrayRead(source, &values), "VecRestoreArrayRead");
}

void JacobianTransport::record(const fem::StepState& s, Vec u) {
  step_rotations(u, at_jacobian_);
#pragma omp parallel for schedule(static) num_threads(threads())
  for (std::size_t k = 0; k < nodes_.size(); ++k)
    at_jacobian_[k] = at_jacobian_[k] * s.committed[nodes_[k].node].orientation.toRotationMatrix();
  recorded_ = true;
  active_ = false;
  from_start_id_ = 0;
}

void JacobianTransport::update(const fem::StepState& s, Vec u) {
  if (!recorded_ || nodes_.empty()) return;
  // T_k = C(b_k) R_n,k R_J,kᵀ: the second factor is the same at every pass of a time element.
  if (s.start_id == 0 || s.start_id != from_start_id_) {
    from_start_.resize(nodes_.size());
#pragma omp parallel for schedule(static) num_threads(threads())
    for (std::size_t k = 0; k < nodes_.size(); ++k)
      from_start_[k] = s.committed[nodes_[k].node].orientation.toRotationMatrix() * at_jacobian_[k].transpose();
    from_start_id_ = s.start_id;
  }
  step_rotations(u, turn_);
#pragma omp parallel for schedule(static) num_threads(threads())
  for (std::size_t k = 0; k < nodes_.size(); ++k) turn_[k] = turn_[k] * from_start_[k];
  active_ = true;
}

void JacobianTransport::turn(Vec v, bool transpose) const {
  PetscScalar* a = nullptr;
  check(VecGetArray(v, &a), "VecGetArray");
  // Each triple reads and writes its own rows.
#pragma omp parallel for schedule(static) num_threads(threads())
  for (std::size_t k = 0; k < triples_.size(); ++k) {
    const Triple& t = triples_[k];
    fem::Vec3 x;
    for (std::size_t i = 0; i < 3; ++i) x[static_cast<Eigen::Index>(i)] = t.rows[i] >= 0 ? a[t.rows[i]] : 0.0;
    const fem::Mat3& T = turn_[t.node];
    const fem::Vec3 y = transpose ? fem::Vec3(T.transpose() * x) : fem::Vec3(T * x);
    for (std::size_t i = 0; i < 3; ++i)
      if (t.rows[i] >= 0) a[t.rows[i]] = y[static_cast<Eigen::Index>(i)];
  }
  check(VecRestoreArray(v, &a), "VecRestoreArray");
}

std::vector<double> JacobianTransport::saved() const {
  int recorded = recorded_ ? 1 : 0, everywhere = 0;
  MPI_Allreduce(&recorded, &everywhere, 1, MPI_INT, MPI_MIN, comm_);
  if (everywhere == 0 || n_saved_ == 0) return {};
  // Each node's axes come from the rank that owns its rotation block; the others add zeros.
  std::vector<double> mine(9 * n_saved_, 0.0), all;
  for (std::size_t k = 0; k < nodes_.size(); ++k)
    if (nodes_[k].owner)
      std::copy_n(at_jacobian_[k].data(), 9, mine.begin() + 9 * static_cast<std::ptrdiff_t>(nodes_[k].saved_index));
  int rank = 0;
  MPI_Comm_rank(comm_, &rank);
  if (rank == 0) all.resize(mine.size());
  MPI_Reduce(mine.data(), all.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_SUM, 0, comm_);
  return all;
}

void JacobianTransport::restore(std::span<const double> values) {
  recorded_ = false;
  from_start_id_ = 0;
  active_ = false;
  if (values.size() != 9 * n_saved_ || n_saved_ == 0) return;
  for (std::size_t k = 0; k < nodes_.size(); ++k)
    std::copy_n(values.begin() + 9 * static_cast<std::ptrdiff_t>(nodes_[k].saved_index), 9, at_jacobian_[k].data());
  recorded_ = true;
}

}  // namespace catena::solvers
