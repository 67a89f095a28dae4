#pragma once
/// The tableau: every unknown of a time element numbered once (METIS), the exact sparsity of
/// the Jacobian preallocated once from the elements' declarations, and the sinks that scatter
/// element stamps into PETSc objects. It never names an element type (docs/architecture.md).
///
/// Under MPI each rank owns a contiguous range of rows (the blocks METIS gave it) and evaluates
/// the elements whose first free block it owns; the trial values an element reads are gathered
/// from other ranks by one scatter per evaluation.
#include "assembly/jacobian_scatter.hpp"
#include "assembly/petsc_handle.hpp"
#include "assembly/stamp_plan.hpp"
#include "fem/model.hpp"

#include <chrono>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace catena::assembly {

class Tableau {
 public:
  Tableau(const fem::Model& model, MPI_Comm comm);

  [[nodiscard]] MPI_Comm comm() const { return comm_; }
  [[nodiscard]] const fem::Model& model() const { return *model_; }
  [[nodiscard]] PetscInt n_global() const { return n_global_; }
  [[nodiscard]] PetscInt n_owned() const { return last_ - first_; }
  [[nodiscard]] PetscInt first_owned() const { return first_; }
  [[nodiscard]] long n_nonzeros() const { return n_nonzeros_; }
  [[nodiscard]] const std::vector<long>& rows_per_rank() const { return rows_per_rank_; }
  /// Global numbering of every block (same on every rank).
  [[nodiscard]] const fem::DofMap& global_map() const { return global_map_; }
  /// Elements this rank evaluates (indices into model.elements).
  [[nodiscard]] std::span<const std::size_t> local_elements() const { return local_elements_; }

  /// The declared pattern of the owned rows: row first_owned() + i couples with the global columns
  /// pattern_columns()[pattern_offsets()[i] ... pattern_offsets()[i + 1]), ascending.
  [[nodiscard]] std::span<const PetscInt> pattern_offsets() const { return pattern_offsets_; }
  [[nodiscard]] std::span<const PetscInt> pattern_columns() const { return pattern_columns_; }
  /// The preallocated Jacobian (pattern fixed: a stamp outside the declared pattern is an error).
  [[nodiscard]] Mat jacobian() const { return jacobian_; }
  /// Counts the assemblies into `jacobian()`: a solver that keeps a factorization of it compares
  /// the count with the one it saw, to know nobody else has written into the matrix since.
  /// Assemblies into other matrices (the sensitivities' own Jacobian) leave it alone: counting
  /// them made `--sensitivity` refresh the run's kept Jacobians and change its iterations.
  [[nodiscard]] long matrix_assemblies() const { return matrix_assemblies_; }
  [[nodiscard]] VecHandle create_vector() const;

  /// f(x) for the time element described by `context` (t_n, h, scheme, committed states).
  void assemble_residual(const fem::StepState& context, Vec x, Vec f);
  /// f(x) of the elements of `other`, a model of this tableau's structure (the same elements
  /// declaring the same blocks and couplings in the same order) whose values differ: the model
  /// read again with a parameter changed (solvers/direct_sensitivity.hpp).
  void assemble_residual_of(const fem::Model& other, const fem::StepState& context, Vec x, Vec f);
  /// ∂f/∂x into J (J has this tableau's pattern).
  void assemble_jacobian(const fem::StepState& context, Vec x, Mat J);
  /// f(x) and ∂f/∂x in one pass over the elements: each element is stamped once, its residual
  /// and Jacobian from the same evaluation (a Newton iteration that needs both pays once).
  void assemble(const fem::StepState& context, Vec x, Vec f, Mat J);
  /// Linearized analyses: the elements' `stamp_rates` at the static state `context` (trial x)
  /// into M (accelerations) and D (rates); both have this tableau's pattern.
  void assemble_rate_matrices(const fem::StepState& context, Vec x, Mat M, Mat D);
  /// Copies a distributed vector onto every rank, in global numbering.
  void gather_all(Vec x, std::vector<double>& out);
  /// The values of `jacobian()` row by row in global numbering, columns ascending within a row,
  /// on rank 0 (empty on the others). Collective. With `set_jacobian_values` it carries a matrix
  /// through a checkpoint.
  [[nodiscard]] std::vector<double> jacobian_values() const;
  /// Writes values in the order `jacobian_values` gives them (on every rank) into `jacobian()`
  /// and assembles it (counted in `matrix_assemblies`). Collective; throws
  /// std::invalid_argument when their number does not fit the pattern.
  void set_jacobian_values(std::span<const double> values);

  /// Threads that stamp the elements (serial runs; always 1 under MPI, whose sinks add other
  /// ranks' rows through PETSc): `n` of them, or with `n` = 0 up to as many as OpenMP gives
  /// (OMP_NUM_THREADS or the processors this process may use) once the first `probe_passes`
  /// passes have each taken at least `parallel_pass_seconds` on one thread, and never more than
  /// the processors other programs leave free (assembly/free_processors.hpp, read again every
  /// `load_check_seconds`): a thread the scheduler puts behind another program's work holds the
  /// others at the end of every pass for a time slice (with a CPU-bound process on the second of
  /// two processors, two threads made chain15 20–37 times slower than one). Results do not depend
  /// on it (assembly/stamp_plan.hpp). Timing both ways and keeping the faster was tried and
  /// dropped: on this shared machine a few passes chose wrongly either way (bench/README.md).
  void set_threads(int n);
  /// The threads that stamp the elements now (1 until the first passes were timed).
  [[nodiscard]] int threads() const { return active_threads_; }
  /// A pass over the elements shorter than this is left to one thread: handing work to another
  /// and waiting for it costs microseconds. chain15 (15 bars and joints, 5 µs a pass) was 3 %
  /// slower on two threads, the spin-up beam (10 elements, 16 µs) 14 % faster.
  static constexpr double parallel_pass_seconds = 10e-6;
  /// Passes timed before deciding; the shortest decides.
  static constexpr std::size_t probe_passes = 4;
  /// How often the processors other programs leave free are read again (about 50 µs each time).
  static constexpr double load_check_seconds = 0.05;

  /// Calls `f(slot, element)` for every element this rank evaluates, in the stamp plan's order and
  /// on the threads that stamp (`threads()`): for per-element work besides the stamps (commits,
  /// energies). `slot` < `n_element_slots()` names the plan's range or its interface: sums kept
  /// per slot and added in slot order are the same on any number of threads.
  void for_each_local_element(const std::function<void(int, std::size_t)>& f) const {
    stamp_plan_.run(active_threads_, f);
  }
  [[nodiscard]] int n_element_slots() const { return stamp_plan_.n_slots(); }

  /// "node 'bob' force y": the owner and meaning of a global row.
  [[nodiscard]] std::string row_name(PetscInt row) const;
  [[nodiscard]] fem::UnknownKind row_kind(PetscInt row) const;
  /// Whether a row is a driven multiplier component (fem::BlockInfo::driven).
  [[nodiscard]] bool row_driven(PetscInt row) const;
  /// Who owns a row's unknown ("node 'tip'", "joint 'A'") and which component of its block it is.
  [[nodiscard]] const std::string& row_owner(PetscInt row) const;
  [[nodiscard]] int row_component(PetscInt row) const { return row_component_[static_cast<std::size_t>(row)]; }

 private:
  /// Points `context` at this rank's view of x (no copy in serial).
  fem::StepState local_view(const fem::StepState& context, Vec x);
  void restore_view(Vec x);
  /// MPI: owned_value_places_ from the assembled pattern.
  void find_owned_values();
  /// Stamps this rank's elements into f and/or J (either may be null) through the fastest sinks
  /// that fit: owned rows straight into f's array, and serially J's values straight into its CSR.
  void stamp_into(const fem::StepState& context, Vec x, Vec f, Mat J);
  /// Runs `stamp` of every element this rank evaluates, at the trial state x; on several threads
  /// when `concurrent` (the sinks may be written from several threads at distinct entries).
  void stamp_local_elements(const fem::StepState& context, Vec x, fem::ResidualSink& r, fem::JacobianSink& j,
                            bool concurrent);
  /// The same with the Jacobian sink `sink_for(slot, element)` chose for each element.
  template <class SinkFor>
  void stamp_local_elements_with(const fem::StepState& context, Vec x, fem::ResidualSink& r, const SinkFor& sink_for,
                                 bool concurrent);
  /// The Jacobian into `target` at the places jacobian_scatter_ recorded (recording them on the
  /// first call, on one thread).
  void stamp_jacobian_scattered(const fem::StepState& context, Vec x, fem::ResidualSink& r, const CsrTarget& target,
                                bool concurrent);

  const fem::Model* model_;
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  PetscInt n_global_ = 0, first_ = 0, last_ = 0;
  long n_nonzeros_ = 0;
  long matrix_assemblies_ = 0;
  std::vector<long> rows_per_rank_;
  fem::DofMap global_map_;
  fem::DofMap local_map_;  // block -> index in the gathered local array (MPI only)
  std::vector<std::size_t> local_elements_;  ///< in the model's order (outputs, energies)
  StampPlan stamp_plan_;  ///< the elements by their first rows, in ranges that threads can share
  /// Before a pass: the threads the free processors allow, when the passes were found long
  /// enough to share (set_threads).
  void follow_free_processors();

  int requested_threads_ = 1, active_threads_ = 1;
  std::size_t probes_ = 0;       ///< passes timed so far on one thread (set_threads)
  double shortest_probe_ = 0.0;  ///< the shortest of them [s]
  bool automatic_threads_ = false;  ///< set_threads(0): the probes and the load decide
  bool threads_pay_ = false;        ///< the probes found the passes long enough to share
  std::chrono::steady_clock::time_point next_load_check_{};
  std::vector<PetscInt> pattern_offsets_, pattern_columns_;  ///< owned rows' global columns (CSR)
  bool csr_values_direct_ = false;  ///< serial, and the matrix's own CSR is exactly the pattern
  /// MPI: for each owned pattern entry its place in the matrix's diagonal part (≥ 0) or, as −1 − k,
  /// in its off-diagonal part (empty when the parts are not exactly the pattern), and the values
  /// an assembly stamps there first.
  std::vector<PetscInt> owned_value_places_;
  std::vector<PetscScalar> owned_values_;
  JacobianScatter jacobian_scatter_;  ///< where each element's Jacobian values go (either CSR path)
  std::vector<std::int32_t> row_block_;    // global row -> block index
  std::vector<std::int8_t> row_component_;
  MatHandle jacobian_;
  VecHandle local_values_;  // MPI: trial values this rank's elements read
  ScatterHandle ghost_scatter_, gather_all_scatter_;
  VecHandle gather_all_values_;
  const PetscScalar* view_ = nullptr;
};

}  // namespace catena::assembly
