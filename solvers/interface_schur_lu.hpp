#pragma once
/// The Newton matrix's direct solve on several ranks: every rank factors its own interior rows by
/// LU without pivoting (the saddle-point order of solvers/saddle_point_ordering.hpp, restricted to
/// them), and the few unknowns on the cut between ranks are solved through their Schur
/// complement, gathered and factored densely on every rank.
///
/// Why not MUMPS, the parallel package PETSc offers: on the tableau's multiplier rows (zero
/// diagonals) it delays most pivots (41 935 of 90 000 on a chain of 10 000 bars, two ranks) and
/// took 95–112 ms a factorization where PETSc's LU without pivoting takes 9 ms on one rank, so two
/// ranks were slower than one at every size measured (bench/README.md).
///
/// The interface is every owned row that couples with another rank's rows (the pattern is
/// symmetric by blocks), plus the multipliers that constrain a node on it (their pivots need all
/// their nodes eliminated before them). What remains of each rank, its interior p, couples only
/// with itself and with its own interface rows:
///
///     [A_pp  A_pI] [x_p]   [b_p]          S = A_II − Σ_p A_Ip A_pp⁻¹ A_pI
///     [A_Ip  A_II] [x_I] = [b_I]          (rank p's term touches only its own interface block)
///
/// Factorization: A_pp = LU on every rank at once; W_p = A_pp⁻¹ A_pI, one solve for each interface
/// column the interior touches; S's rows gathered on every rank and factored there with partial
/// pivoting. Solve: y_p = A_pp⁻¹ b_p, x_I = S⁻¹ (b_I − A_Ip y_p), x_p = y_p − W_p x_I: one
/// interior solve and one small gather. It pays where the cut is narrow (chains, trees, slender
/// meshes); `suits()` says whether it does.
#include "assembly/tableau.hpp"

#include <Eigen/Dense>
#include <petscpc.h>

#include <vector>

namespace catena::solvers {

class InterfaceSchurLU {
 public:
  /// The interface, found from the tableau's pattern (collective); `order` is the saddle-point order of all
  /// the tableau's rows (saddle_point_order).
  InterfaceSchurLU(const assembly::Tableau& tableau, const std::vector<PetscInt>& order);
  InterfaceSchurLU(const InterfaceSchurLU&) = delete;
  InterfaceSchurLU& operator=(const InterfaceSchurLU&) = delete;

  /// Its name in the run's counters (summary.json's `linear_solver`).
  static constexpr const char* name = "petsc+schur";
  /// A wider cut costs more interior solves per factorization than MUMPS takes for the whole matrix: at most
  /// this many interface columns touched by any rank's interior.
  static constexpr PetscInt max_columns_per_rank = 64;
  /// S is factored densely on every rank: at most this many unknowns on the cut.
  static constexpr PetscInt max_interface = 512;
  /// Whether the cut is narrow enough and every rank has interior rows (the same answer on every rank).
  [[nodiscard]] bool suits() const { return suits_; }
  /// Unknowns on the cut, all ranks together.
  [[nodiscard]] PetscInt interface_size() const { return n_interface_; }

  /// Makes `pc` a shell that factors the operator at set-up and solves with it. A zero pivot in any rank's
  /// interior, or a singular interface, fails the set-up on every rank.
  void install(PC pc);

 private:
  static PetscErrorCode set_up(PC pc);
  static PetscErrorCode apply(PC pc, Vec b, Vec x);
  /// Factors the interiors and the interface; false (on every rank) where a pivot was zero.
  bool factor(Mat J);
  void solve(Vec b, Vec x);
  /// The interior factorization of this rank; false where it met a zero pivot.
  bool factor_interior(Mat J);
  /// interior_value_places_, once the interior matrix exists.
  void find_interior_values(Mat diagonal);

  MPI_Comm comm_;
  PetscInt first_ = 0;
  std::vector<PetscInt> interior_;   ///< owned rows (local index) eliminated on this rank
  std::vector<PetscInt> interface_;  ///< owned rows (local index) on the cut
  std::vector<int> interface_counts_, interface_displacements_;  ///< per rank, for the gathers
  PetscInt interface_offset_ = 0;  ///< this rank's first position among the interface unknowns
  PetscInt n_interface_ = 0;
  bool suits_ = false;

  /// Rows whose values the Schur complement reads (global index, pattern's global columns, and where each
  /// value goes: ≥ 0 a W column or interface position, see factor()).
  struct BoundaryRow {
    PetscInt row = 0;
    bool on_interface = false;
    PetscInt local = 0;  ///< interior position (on_interface false) or local interface index
    std::vector<PetscInt> columns;
    std::vector<PetscInt> targets;  ///< interior: W column or −1; interface: see factor()
  };
  std::vector<BoundaryRow> boundary_rows_;
  PetscInt n_w_columns_ = 0;
  std::vector<PetscInt> w_column_position_;  ///< W column → position among the interface unknowns

  std::vector<PetscInt> interior_position_;      ///< owned row (local) → interior position, −1 on the cut
  std::vector<PetscInt> interior_value_places_;  ///< interior matrix's k-th value → the diagonal part's
  assembly::ISHandle interior_is_, interior_order_;
  assembly::MatHandle interior_matrix_, interior_factor_, rhs_columns_, w_;
  assembly::VecHandle interior_rhs_, interior_solution_;
  /// A_Ip's entries of this rank's interface rows: (local interface index, interior position, value).
  struct Entry {
    PetscInt row, column;
    double value;
  };
  std::vector<Entry> interface_to_interior_;
  std::vector<double> local_rhs_, interface_rhs_;  ///< scratch of the solves
  Eigen::PartialPivLU<Eigen::MatrixXd> schur_;
};

}  // namespace catena::solvers
