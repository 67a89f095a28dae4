#include "assembly/tableau.hpp"

#include "assembly/collectives.hpp"
#include "assembly/free_processors.hpp"
#include "assembly/ordering.hpp"
#include "assembly/petsc_sinks.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <numeric>
#include <optional>
#include <utility>

namespace catena::assembly {

namespace {

/// Every block an element touches, from the couplings its `declare` added.
std::vector<fem::BlockId> element_blocks(const fem::Model& model, std::size_t e) {
  std::vector<fem::BlockId> blocks;
  const auto [begin, end] = model.element_couplings[e];
  for (std::size_t c = begin; c < end; ++c)
    for (const fem::BlockId b : model.registry.couplings()[c])
      if (std::find(blocks.begin(), blocks.end(), b) == blocks.end()) blocks.push_back(b);
  return blocks;
}

}  // namespace

Tableau::Tableau(const fem::Model& model, MPI_Comm comm) : model_(&model), comm_(comm) {
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &size_);
  const fem::UnknownRegistry& registry = model.registry;
  const BlockGraph graph = block_graph(registry);
  // Nested dissection serves PETSc's own LU when asked for by name, which factors in the given
  // order. The other packages order for fill themselves, as does the default LU without pivoting
  // (the saddle-point order), on one rank or on each rank's interior under MPI; and the model's
  // own order keeps an assembly's reads and writes close together in memory: falling chains of
  // 1e4 / 1e5 bars took 222 / 3 035 ms per step in nested-dissection order, 186 / 2 693 in their
  // own (bench/README.md); on two ranks, nested dissection within each part made every element's
  // stamp about twice as slow as on one rank.
  const bool nested = model.analysis.linear_solver == "petsc";
  const BlockOrdering ordering = order_blocks(registry, graph, size_, nested);
  global_map_ = registry.numbering(ordering.order);

  // Ownership: rank p owns the dofs of the blocks METIS gave it, contiguous by construction.
  std::vector<long> owned(size_, 0);
  for (std::size_t b = 0; b < registry.n_blocks(); ++b)
    for (const fem::Dof d : global_map_.dofs(fem::BlockId{static_cast<std::int32_t>(b)}))
      if (d != fem::fixed_dof) ++owned[ordering.part[b]];
  rows_per_rank_ = owned;
  n_global_ = static_cast<PetscInt>(std::accumulate(owned.begin(), owned.end(), 0L));
  first_ = static_cast<PetscInt>(std::accumulate(owned.begin(), owned.begin() + rank_, 0L));
  last_ = first_ + static_cast<PetscInt>(owned[rank_]);

  row_block_.assign(n_global_, -1);
  row_component_.assign(n_global_, 0);
  for (std::size_t b = 0; b < registry.n_blocks(); ++b) {
    const auto dofs = global_map_.dofs(fem::BlockId{static_cast<std::int32_t>(b)});
    for (std::size_t c = 0; c < dofs.size(); ++c)
      if (dofs[c] != fem::fixed_dof) {
        row_block_[dofs[c]] = static_cast<std::int32_t>(b);
        row_component_[dofs[c]] = static_cast<std::int8_t>(c);
      }
  }

  // Elements are evaluated by the rank owning their first free block (exactly one rank each, so
  // energies and outputs are counted once).
  std::vector<PetscInt> needed;
  std::vector<std::pair<PetscInt, std::size_t>> stamp_order;  // (first row, element)
  for (std::size_t e = 0; e < model.elements.size(); ++e) {
    const std::vector<fem::BlockId> blocks = element_blocks(model, e);
    int owner = 0;
    for (const fem::BlockId b : blocks)
      if (graph.vertex_of_block[b.index] >= 0) {
        owner = ordering.part[b.index];
        break;
      }
    if (owner != rank_) continue;
    local_elements_.push_back(e);
    PetscInt first_row = n_global_;
    for (const fem::BlockId b : blocks)
      for (const fem::Dof d : global_map_.dofs(b))
        if (d != fem::fixed_dof) {
          needed.push_back(d);
          first_row = std::min<PetscInt>(first_row, d);
        }
    stamp_order.push_back({first_row, e});
  }
  // Stamped in the order of their rows, so that an assembly walks the matrix's memory forwards
  // whatever the numbering: in the model's order, rows permuted by nested dissection are hit at
  // random (from 1e4 to 1e5 chain links the assembly grew 16 times: cache misses on 230 MB).
  std::sort(stamp_order.begin(), stamp_order.end());
  jacobian_scatter_ = JacobianScatter(model.elements.size());
  stamp_plan_ = StampPlan(
      stamp_order,
      [&](std::size_t i) {
        std::vector<fem::BlockId> written = element_blocks(model, stamp_order[i].second);
        std::erase_if(written, [&](fem::BlockId b) {
          const auto dofs = global_map_.dofs(b);
          return std::all_of(dofs.begin(), dofs.end(), [](fem::Dof d) { return d == fem::fixed_dof; });
        });
        return written;
      },
      registry.n_blocks());

  // Exact preallocation: a row couples with every free dof of its block's graph neighbours.
  std::vector<PetscInt> d_nnz(n_owned(), 0), o_nnz(n_owned(), 0);
  std::vector<std::vector<PetscInt>> row_columns(registry.n_blocks());
  for (std::size_t v = 0; v < graph.block_of_vertex.size(); ++v) {
    const std::int32_t b = graph.block_of_vertex[v];
    if (ordering.part[b] != rank_) continue;
    std::vector<PetscInt>& cols = row_columns[b];
    auto add_block = [&](std::int32_t block) {
      for (const fem::Dof d : global_map_.dofs(fem::BlockId{block}))
        if (d != fem::fixed_dof) cols.push_back(d);
    };
    add_block(b);
    for (const std::int32_t n : graph.neighbours[v]) add_block(graph.block_of_vertex[n]);
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    const auto diagonal = std::count_if(cols.begin(), cols.end(), [&](PetscInt c) { return c >= first_ && c < last_; });
    for (const fem::Dof r : global_map_.dofs(fem::BlockId{b}))
      if (r != fem::fixed_dof) {
        d_nnz[r - first_] = static_cast<PetscInt>(diagonal);
        o_nnz[r - first_] = static_cast<PetscInt>(cols.size() - diagonal);
      }
  }
  check(MatCreate(comm_, jacobian_.out()), "MatCreate");
  check(MatSetSizes(jacobian_, n_owned(), n_owned(), n_global_, n_global_), "MatSetSizes");
  check(MatSetType(jacobian_, size_ > 1 ? MATMPIAIJ : MATSEQAIJ), "MatSetType");
  check(MatSeqAIJSetPreallocation(jacobian_, 0, d_nnz.data()), "MatSeqAIJSetPreallocation");
  check(MatMPIAIJSetPreallocation(jacobian_, 0, d_nnz.data(), 0, o_nnz.data()), "MatMPIAIJSetPreallocation");
  check(MatSetOption(jacobian_, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE), "MatSetOption");
  check(MatSetOption(jacobian_, MAT_ROW_ORIENTED, PETSC_FALSE), "MatSetOption");
  // Insert the whole declared pattern once (explicit zeros), then forbid any new location: the
  // pattern never changes, so the symbolic factorization is computed once for the whole run.
  std::vector<PetscScalar> zeros;
  for (std::size_t b = 0; b < registry.n_blocks(); ++b) {
    const std::vector<PetscInt>& cols = row_columns[b];
    if (cols.empty()) continue;
    zeros.assign(cols.size(), 0.0);
    for (const fem::Dof r : global_map_.dofs(fem::BlockId{static_cast<std::int32_t>(b)}))
      if (r != fem::fixed_dof)
        check(MatSetValues(jacobian_, 1, &r, static_cast<PetscInt>(cols.size()), cols.data(), zeros.data(), INSERT_VALUES),
              "MatSetValues");
  }
  check(MatAssemblyBegin(jacobian_, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(jacobian_, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  check(MatSetOption(jacobian_, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_TRUE), "MatSetOption");
  // The owned rows' columns, row by row, for reading and restoring the values (a kept Jacobian in
  // a checkpoint): MatGetRow reports no entries for an MPIAIJ matrix that holds only the pattern.
  pattern_offsets_.assign(static_cast<std::size_t>(n_owned()) + 1, 0);
  for (std::size_t b = 0; b < registry.n_blocks(); ++b)
    for (const fem::Dof r : global_map_.dofs(fem::BlockId{static_cast<std::int32_t>(b)}))
      if (r != fem::fixed_dof && r >= first_ && r < last_)
        pattern_offsets_[static_cast<std::size_t>(r - first_) + 1] = static_cast<PetscInt>(row_columns[b].size());
  std::partial_sum(pattern_offsets_.begin(), pattern_offsets_.end(), pattern_offsets_.begin());
  pattern_columns_.resize(static_cast<std::size_t>(pattern_offsets_.back()));
  for (std::size_t b = 0; b < registry.n_blocks(); ++b)
    for (const fem::Dof r : global_map_.dofs(fem::BlockId{static_cast<std::int32_t>(b)}))
      if (r != fem::fixed_dof && r >= first_ && r < last_)
        std::copy(row_columns[b].begin(), row_columns[b].end(),
                  pattern_columns_.begin() + pattern_offsets_[static_cast<std::size_t>(r - first_)]);
  MatInfo info;
  check(MatGetInfo(jacobian_, MAT_GLOBAL_SUM, &info), "MatGetInfo");
  n_nonzeros_ = static_cast<long>(info.nz_used);
  // Serial stamps go straight into the matrix's values when its rows are exactly the pattern.
  if (size_ == 1) {
    PetscInt n = 0;
    const PetscInt *ia = nullptr, *ja = nullptr;
    PetscBool done = PETSC_FALSE;
    check(MatGetRowIJ(jacobian_, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done), "MatGetRowIJ");
    csr_values_direct_ = done == PETSC_TRUE && n == n_owned() &&
                         std::equal(ia, ia + n + 1, pattern_offsets_.begin(), pattern_offsets_.end()) &&
                         std::equal(ja, ja + ia[n], pattern_columns_.begin(), pattern_columns_.end());
    check(MatRestoreRowIJ(jacobian_, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done), "MatRestoreRowIJ");
  }

  if (size_ > 1) find_owned_values();

  if (size_ > 1) {
    // Ghost scatter: the trial values this rank's elements read, in a local sequential vector.
    std::sort(needed.begin(), needed.end());
    needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
    const auto n_needed = static_cast<PetscInt>(needed.size());
    local_map_ = global_map_.transformed([&](fem::Dof d) {
      const auto it = std::lower_bound(needed.begin(), needed.end(), d);
      return (it != needed.end() && *it == d) ? static_cast<fem::Dof>(it - needed.begin()) : fem::fixed_dof;
    });
    check(VecCreateSeq(PETSC_COMM_SELF, n_needed, local_values_.out()), "VecCreateSeq");
    ISHandle from, to;
    check(ISCreateGeneral(PETSC_COMM_SELF, n_needed, needed.data(), PETSC_COPY_VALUES, from.out()), "ISCreateGeneral");
    check(ISCreateStride(PETSC_COMM_SELF, n_needed, 0, 1, to.out()), "ISCreateStride");
    const VecHandle layout = create_vector();
    check(VecScatterCreate(layout, from, local_values_, to, ghost_scatter_.out()), "VecScatterCreate");
  }
}

void Tableau::find_owned_values() {
  // Where each owned pattern entry sits in the MPIAIJ matrix's two sequential parts: the
  // diagonal block (this rank's columns) and the off-diagonal block (compressed columns, ascending
  // with their global numbers).
  Mat diagonal = nullptr, off_diagonal = nullptr;
  const PetscInt* off_columns = nullptr;
  check(MatMPIAIJGetSeqAIJ(jacobian_, &diagonal, &off_diagonal, &off_columns), "MatMPIAIJGetSeqAIJ");
  PetscInt n_d = 0, n_o = 0;
  const PetscInt *ia = nullptr, *ja = nullptr, *ib = nullptr, *jb = nullptr;
  PetscBool done_d = PETSC_FALSE, done_o = PETSC_FALSE;
  check(MatGetRowIJ(diagonal, 0, PETSC_FALSE, PETSC_FALSE, &n_d, &ia, &ja, &done_d), "MatGetRowIJ");
  check(MatGetRowIJ(off_diagonal, 0, PETSC_FALSE, PETSC_FALSE, &n_o, &ib, &jb, &done_o), "MatGetRowIJ");
  bool exact = done_d == PETSC_TRUE && done_o == PETSC_TRUE && n_d == n_owned() && n_o == n_owned();
  owned_value_places_.assign(pattern_columns_.size(), 0);
  for (PetscInt i = 0; exact && i < n_owned(); ++i) {
    PetscInt a = ia[i], b = ib[i];
    const auto row = static_cast<std::size_t>(i);
    for (PetscInt k = pattern_offsets_[row]; exact && k < pattern_offsets_[row + 1]; ++k) {
      const PetscInt c = pattern_columns_[static_cast<std::size_t>(k)];
      if (c >= first_ && c < last_ && a < ia[i + 1] && ja[a] == c - first_)
        owned_value_places_[static_cast<std::size_t>(k)] = a++;
      else if ((c < first_ || c >= last_) && b < ib[i + 1] && off_columns[jb[b]] == c)
        owned_value_places_[static_cast<std::size_t>(k)] = -1 - b++;
      else
        exact = false;
    }
    exact = exact && a == ia[i + 1] && b == ib[i + 1];  // every entry of the matrix written
  }
  check(MatRestoreRowIJ(diagonal, 0, PETSC_FALSE, PETSC_FALSE, &n_d, &ia, &ja, &done_d), "MatRestoreRowIJ");
  check(MatRestoreRowIJ(off_diagonal, 0, PETSC_FALSE, PETSC_FALSE, &n_o, &ib, &jb, &done_o), "MatRestoreRowIJ");
  if (exact)
    owned_values_.assign(pattern_columns_.size(), 0.0);
  else
    owned_value_places_.clear();
}

VecHandle Tableau::create_vector() const {
  VecHandle v;
  check(VecCreateMPI(comm_, n_owned(), n_global_, v.out()), "VecCreateMPI");
  // Fixed components are numbered -1 and simply skipped when elements stamp into the vector.
  check(VecSetOption(v, VEC_IGNORE_NEGATIVE_INDICES, PETSC_TRUE), "VecSetOption");
  return v;
}

fem::StepState Tableau::local_view(const fem::StepState& context, Vec x) {
  fem::StepState s = context;
  if (size_ == 1) {
    check(VecGetArrayRead(x, &view_), "VecGetArrayRead");
    s.trial = {view_, static_cast<std::size_t>(n_global_)};
    s.map = &global_map_;
    return s;
  }
  check(VecScatterBegin(ghost_scatter_, x, local_values_, INSERT_VALUES, SCATTER_FORWARD), "VecScatterBegin");
  check(VecScatterEnd(ghost_scatter_, x, local_values_, INSERT_VALUES, SCATTER_FORWARD), "VecScatterEnd");
  PetscInt n = 0;
  check(VecGetLocalSize(local_values_, &n), "VecGetLocalSize");
  check(VecGetArrayRead(local_values_, &view_), "VecGetArrayRead");
  s.trial = {view_, static_cast<std::size_t>(n)};
  s.map = &local_map_;
  return s;
}

void Tableau::restore_view(Vec x) {
  check(VecRestoreArrayRead(size_ == 1 ? x : local_values_.get(), &view_), "VecRestoreArrayRead");
  view_ = nullptr;
}

void Tableau::set_threads(int n) {
  requested_threads_ = size_ > 1 ? 1 : n > 0 ? n : omp_get_max_threads();
  // Asked for by number: neither timing nor the machine's load decides.
  active_threads_ = n > 0 ? requested_threads_ : 1;
  automatic_threads_ = n <= 0 && requested_threads_ > 1;
  probes_ = 0;
  threads_pay_ = false;
}

void Tableau::follow_free_processors() {
  const auto now = std::chrono::steady_clock::now();
  if (!threads_pay_ || now < next_load_check_) return;
  next_load_check_ = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                               std::chrono::duration<double>(load_check_seconds));
  // Where /proc cannot be read, the threads stay as they are.
  active_threads_ = std::clamp(free_processors().value_or(active_threads_), 1, requested_threads_);
}

void Tableau::stamp_local_elements(const fem::StepState& context, Vec x, fem::ResidualSink& r, fem::JacobianSink& j,
                                   bool concurrent) {
  stamp_local_elements_with(context, x, r, [&j](int, std::size_t) -> fem::JacobianSink& { return j; }, concurrent);
}

template <class SinkFor>
void Tableau::stamp_local_elements_with(const fem::StepState& context, Vec x, fem::ResidualSink& r,
                                        const SinkFor& sink_for, bool concurrent) {
  const fem::StepState s = local_view(context, x);
  // The first passes are timed on one thread; the shortest decides whether threads pay.
  const bool probing = concurrent && automatic_threads_ && !threads_pay_ && probes_ < probe_passes;
  if (concurrent) follow_free_processors();
  const auto start = std::chrono::steady_clock::now();
  // Handed over by reference: a std::function holding the lambda itself would allocate each pass.
  const auto stamp = [&](int slot, std::size_t e) {
    try {
      model_->elements[e]->stamp(s, r, sink_for(slot, e));
    } catch (const fem::DomainError& error) {
      // Named with where the model file writes it: "model.yaml:6: beam element 'bar_2': beam
      // collapsed to zero length" (Newton cuts the step on it; a run that cannot go on says it).
      throw fem::DomainError(model_->element_description(*model_->elements[e]) + ": " + error.what());
    }
  };
  try {
    stamp_plan_.run(concurrent ? active_threads_ : 1, std::cref(stamp));
  } catch (...) {
    restore_view(x);  // a domain error must not leave the vector's array checked out
    throw;
  }
  restore_view(x);
  if (probing) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    shortest_probe_ = probes_++ == 0 ? seconds : std::min(shortest_probe_, seconds);
    if (probes_ == probe_passes && shortest_probe_ >= parallel_pass_seconds) {
      threads_pay_ = true;
      follow_free_processors();
    }
  }
}

namespace {

/// Assembles `matrices` (collective).
void assemble_matrices(std::initializer_list<Mat> matrices) {
  for (Mat A : matrices) {
    check(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
    check(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  }
}

/// Runs `stamp`, then `finish` (the collective assembly) whatever happens; a domain error that
/// any rank's stamp met is thrown on every rank, so that all ranks cut the step together (one rank
/// cutting while the others wait in the next collective call hung the run).
template <class Stamp, class Finish>
void stamp_then_finish(MPI_Comm comm, const Stamp& stamp, const Finish& finish) {
  std::optional<std::string> domain_error;
  try {
    stamp();
  } catch (const fem::DomainError& e) {
    domain_error = e.what();
  } catch (...) {
    finish();
    throw;
  }
  finish();
  if (const std::optional<std::string> failure = failure_on_any_rank(domain_error, comm)) throw fem::DomainError(*failure);
}

/// Zeroes the outputs, stamps, and assembles them: assembly is collective, so it runs even when
/// a stamp throws a domain error, which leaves the objects usable for the retry with a smaller step.
template <class Stamp>
void assemble_with(MPI_Comm comm, Vec f, Mat J, const Stamp& stamp) {
  if (f) check(VecZeroEntries(f), "VecZeroEntries");
  if (J) check(MatZeroEntries(J), "MatZeroEntries");
  auto finish = [&] {
    if (f) {
      check(VecAssemblyBegin(f), "VecAssemblyBegin");
      check(VecAssemblyEnd(f), "VecAssemblyEnd");
    }
    if (J) assemble_matrices({J});
  };
  stamp_then_finish(comm, stamp, finish);
}

/// A PETSc object's values checked out for one assembly (Get/Restore a pair of PETSc's array
/// accessors), returned even when a stamp throws.
template <class Object, PetscErrorCode (*Get)(Object, PetscScalar**), PetscErrorCode (*Restore)(Object, PetscScalar**)>
class CheckedOutArray {
 public:
  explicit CheckedOutArray(Object object) : object_(object) { check(Get(object, &a_), "checking out PETSc values"); }
  CheckedOutArray(const CheckedOutArray&) = delete;
  CheckedOutArray& operator=(const CheckedOutArray&) = delete;
  ~CheckedOutArray() { (void)Restore(object_, &a_); }
  [[nodiscard]] PetscScalar* get() const { return a_; }

 private:
  Object object_;
  PetscScalar* a_ = nullptr;
};
/// The owned part of a vector's array.
using OwnedArray = CheckedOutArray<Vec, VecGetArray, VecRestoreArray>;
/// The values of a sequential AIJ matrix, in the order of its CSR.
using CsrValues = CheckedOutArray<Mat, MatSeqAIJGetArray, MatSeqAIJRestoreArray>;

}  // namespace

void Tableau::stamp_into(const fem::StepState& context, Vec x, Vec f, Mat J) {
  std::optional<OwnedArray> owned;
  std::optional<OwnedRowsResidualSink> residual;
  fem::NullResidualSink no_residual;
  if (f) {
    owned.emplace(f);
    residual.emplace(f, owned->get(), first_, last_, global_map_);
  }
  fem::ResidualSink& r = f ? static_cast<fem::ResidualSink&>(*residual) : no_residual;
  fem::NullJacobianSink no_jacobian;
  // Threads write distinct entries of f's owned array and of J's CSR values; MatSetValues is
  // not for several threads.
  if (!J) return stamp_local_elements(context, x, r, no_jacobian, true);
  if (J == jacobian_.get() && csr_values_direct_) {
    const CsrValues values(J);
    const CsrTarget target{values.get(), pattern_offsets_, pattern_columns_, &global_map_, 0,
                           static_cast<PetscInt>(pattern_offsets_.size()) - 1, nullptr};
    return stamp_jacobian_scattered(context, x, r, target, true);
  }
  if (J == jacobian_.get() && !owned_value_places_.empty()) {
    // MPI: the owned rows into a copy of the pattern's values, then into the matrix's two parts;
    // other ranks' rows through MatSetValues.
    std::fill(owned_values_.begin(), owned_values_.end(), 0.0);
    const CsrTarget target{owned_values_.data(), pattern_offsets_, pattern_columns_, &global_map_, first_, last_, J};
    stamp_jacobian_scattered(context, x, r, target, false);
    Mat diagonal = nullptr, off_diagonal = nullptr;
    check(MatMPIAIJGetSeqAIJ(J, &diagonal, &off_diagonal, nullptr), "MatMPIAIJGetSeqAIJ");
    const CsrValues d(diagonal), o(off_diagonal);
    for (std::size_t k = 0; k < owned_values_.size(); ++k) {
      const PetscInt place = owned_value_places_[k];
      (place >= 0 ? d.get()[place] : o.get()[-1 - place]) = owned_values_[k];
    }
    return;
  }
  PetscJacobianSink j(J, global_map_);
  stamp_local_elements(context, x, r, j, false);
}

void Tableau::stamp_jacobian_scattered(const fem::StepState& context, Vec x, fem::ResidualSink& r,
                                       const CsrTarget& target, bool concurrent) {
  if (!jacobian_scatter_.recorded()) {
    JacobianScatter::Recorder recorder(jacobian_scatter_, target);
    try {
      stamp_local_elements_with(
          context, x, r,
          [&recorder](int, std::size_t e) -> fem::JacobianSink& {
            recorder.begin_element(e);
            return recorder;
          },
          false);
    } catch (...) {
      jacobian_scatter_.clear();  // recorded again by the next assembly
      throw;
    }
    jacobian_scatter_.finish_recording();
    return;
  }
  // One sink per range of the plan: a range is stamped by one thread, element after element.
  std::vector<JacobianScatter::Replay> sinks(static_cast<std::size_t>(stamp_plan_.n_slots()),
                                             JacobianScatter::Replay(jacobian_scatter_, target));
  stamp_local_elements_with(
      context, x, r,
      [&sinks](int slot, std::size_t e) -> fem::JacobianSink& {
        JacobianScatter::Replay& sink = sinks[static_cast<std::size_t>(slot)];
        sink.begin_element(e);
        return sink;
      },
      concurrent);
}

void Tableau::assemble_residual(const fem::StepState& context, Vec x, Vec f) {
  assemble_with(comm_, f, nullptr, [&] { stamp_into(context, x, f, nullptr); });
}

void Tableau::assemble_residual_of(const fem::Model& other, const fem::StepState& context, Vec x, Vec f) {
  // The stamp plan and the element ranges are by index, the same for both models.
  const fem::Model* const own = std::exchange(model_, &other);
  try {
    assemble_residual(context, x, f);
  } catch (...) {
    model_ = own;
    throw;
  }
  model_ = own;
}

void Tableau::assemble_jacobian(const fem::StepState& context, Vec x, Mat J) {
  if (J == jacobian_) ++matrix_assemblies_;
  assemble_with(comm_, nullptr, J, [&] { stamp_into(context, x, nullptr, J); });
}

void Tableau::assemble(const fem::StepState& context, Vec x, Vec f, Mat J) {
  if (J == jacobian_) ++matrix_assemblies_;
  assemble_with(comm_, f, J, [&] { stamp_into(context, x, f, J); });
}

void Tableau::assemble_rate_matrices(const fem::StepState& context, Vec x, Mat M, Mat D) {
  if (M == jacobian_ || D == jacobian_) ++matrix_assemblies_;
  check(MatZeroEntries(M), "MatZeroEntries");
  check(MatZeroEntries(D), "MatZeroEntries");
  PetscJacobianSink mass(M, global_map_), damping(D, global_map_);
  const fem::StepState s = local_view(context, x);
  const auto stamp = [&] {
    for (const std::size_t e : stamp_plan_.order()) model_->elements[e]->stamp_rates(s, mass, damping);
  };
  stamp_then_finish(comm_, stamp, [&] {
    restore_view(x);
    assemble_matrices({M, D});
  });
}

void Tableau::gather_all(Vec x, std::vector<double>& out) {
  out.resize(static_cast<std::size_t>(n_global_));
  const PetscScalar* a = nullptr;
  if (size_ == 1) {
    check(VecGetArrayRead(x, &a), "VecGetArrayRead");
    std::copy(a, a + n_global_, out.begin());
    check(VecRestoreArrayRead(x, &a), "VecRestoreArrayRead");
    return;
  }
  if (!gather_all_scatter_.get())
    check(VecScatterCreateToAll(x, gather_all_scatter_.out(), gather_all_values_.out()), "VecScatterCreateToAll");
  check(VecScatterBegin(gather_all_scatter_, x, gather_all_values_, INSERT_VALUES, SCATTER_FORWARD), "VecScatterBegin");
  check(VecScatterEnd(gather_all_scatter_, x, gather_all_values_, INSERT_VALUES, SCATTER_FORWARD), "VecScatterEnd");
  check(VecGetArrayRead(gather_all_values_, &a), "VecGetArrayRead");
  std::copy(a, a + n_global_, out.begin());
  check(VecRestoreArrayRead(gather_all_values_, &a), "VecRestoreArrayRead");
}

std::vector<double> Tableau::jacobian_values() const {
  std::vector<double> local(pattern_columns_.size());
  for (PetscInt row = first_; row < last_; ++row) {
    const PetscInt begin = pattern_offsets_[static_cast<std::size_t>(row - first_)];
    const PetscInt n = pattern_offsets_[static_cast<std::size_t>(row - first_) + 1] - begin;
    check(MatGetValues(jacobian_, 1, &row, n, pattern_columns_.data() + begin, local.data() + begin), "MatGetValues");
  }
  if (size_ == 1) return local;
  // Rows are numbered rank by rank, so the ranks' pieces follow each other in global order.
  const int count = static_cast<int>(local.size());
  std::vector<int> counts(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_));
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_);
  std::vector<double> all;
  if (rank_ == 0) {
    std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), 0);
    all.resize(static_cast<std::size_t>(offsets.back() + counts.back()));
  }
  MPI_Gatherv(local.data(), count, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE, 0, comm_);
  return all;
}

void Tableau::set_jacobian_values(std::span<const double> values) {
  if (values.size() != static_cast<std::size_t>(n_nonzeros_))
    throw std::invalid_argument(std::to_string(values.size()) + " Jacobian entries for a pattern of " +
                                std::to_string(n_nonzeros_));
  const auto local = static_cast<long>(pattern_columns_.size());
  long offset = 0;
  MPI_Exscan(&local, &offset, 1, MPI_LONG, MPI_SUM, comm_);
  if (rank_ == 0) offset = 0;  // MPI_Exscan leaves rank 0's result undefined
  for (PetscInt row = first_; row < last_; ++row) {
    const PetscInt begin = pattern_offsets_[static_cast<std::size_t>(row - first_)];
    const PetscInt n = pattern_offsets_[static_cast<std::size_t>(row - first_) + 1] - begin;
    // The matrix is column-oriented for the element stamps; one row is the same either way.
    check(MatSetValues(jacobian_, 1, &row, n, pattern_columns_.data() + begin, values.data() + offset + begin,
                       INSERT_VALUES),
          "MatSetValues");
  }
  check(MatAssemblyBegin(jacobian_, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(jacobian_, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  ++matrix_assemblies_;
}

std::string Tableau::row_name(PetscInt row) const {
  if (row < 0 || row >= n_global_) return "row " + std::to_string(row);
  return model_->registry.blocks()[row_block_[row]].row_name(row_component_[row]);
}

const std::string& Tableau::row_owner(PetscInt row) const {
  return model_->registry.blocks()[row_block_[row]].owner;
}

fem::UnknownKind Tableau::row_kind(PetscInt row) const {
  return model_->registry.blocks()[row_block_[row]].kind;
}

bool Tableau::row_driven(PetscInt row) const {
  return model_->registry.blocks()[row_block_[row]].driven[static_cast<std::size_t>(row_component_[row])];
}

}  // namespace catena::assembly
