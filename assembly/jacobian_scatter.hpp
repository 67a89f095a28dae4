#pragma once
/// Where every value each element stamps into the Jacobian goes, found once and then replayed.
///
/// CsrJacobianSink finds each block row's columns by a search in the row's CSR columns: the
/// columns are read, and the search's branches mispredicted, on every Jacobian assembly. At 1e5
/// chain bars (19 M nonzeros, whose 151 MB of values and 76 MB of columns are far beyond the
/// caches) that search was 13 % of the run, more than the joints' arithmetic. The first assembly
/// records, per element and in the order it stamps, each block's (row, column) ids and the place
/// of each of its values in the CSR values; later assemblies read those places in one stream and
/// only write the values. An element whose blocks differ from those recorded (a stamp that
/// depends on the state) is assembled by search from that block on, in that assembly: the values
/// are the same either way (tests/assembly/jacobian_scatter_test.cpp).
#include "assembly/petsc_sinks.hpp"
#include "fem/sinks.hpp"
#include "fem/unknowns.hpp"

#include <petscmat.h>

#include <cstdint>
#include <span>
#include <vector>

namespace catena::assembly {

/// The CSR arrays a Jacobian assembly writes into: rows `first .. last` of the pattern, values
/// laid out as `columns`; other ranks' rows through MatSetValues into `others` (MPI).
struct CsrTarget {
  PetscScalar* values = nullptr;
  std::span<const PetscInt> offsets, columns;
  const fem::DofMap* map = nullptr;
  PetscInt first = 0, last = 0;
  Mat others = nullptr;
};

class JacobianScatter {
 public:
  /// For a model of `n_elements` elements; nothing recorded yet.
  explicit JacobianScatter(std::size_t n_elements = 0) : elements_(n_elements) {}

  [[nodiscard]] bool recorded() const { return recorded_; }
  /// Drops what was recorded (an assembly that stopped part way).
  void clear();
  /// After every element of a recording assembly.
  void finish_recording() { recorded_ = true; }

  /// Stamps blocks into `target` by search and records their places, element by element
  /// (begin_element before each; one thread).
  class Recorder final : public fem::JacobianSink {
   public:
    Recorder(JacobianScatter& scatter, const CsrTarget& target) : scatter_(scatter), target_(target) {}
    void begin_element(std::size_t element);
    void add(fem::BlockId row, fem::BlockId col, const double* values, int n_rows, int n_cols) override;

   private:
    JacobianScatter& scatter_;
    CsrTarget target_;
    std::size_t element_ = 0;
  };

  /// Stamps blocks into `target` at the recorded places (begin_element before each element;
  /// one per thread).
  class Replay final : public fem::JacobianSink {
   public:
    Replay(const JacobianScatter& scatter, const CsrTarget& target);
    void begin_element(std::size_t element);
    void add(fem::BlockId row, fem::BlockId col, const double* values, int n_rows, int n_cols) override;

   private:
    const JacobianScatter* scatter_;
    CsrTarget target_;
    CsrJacobianSink search_;  ///< for blocks that differ from the recording
    std::size_t call_ = 0, end_ = 0, place_ = 0;
    bool on_record_ = true;  ///< false once this element's blocks left the recording
  };

 private:
  /// A place for a value of another rank's row (MatSetValues) or of a fixed row or column (none).
  static constexpr PetscInt other_rank = -2, fixed = -1;
  /// A block as recorded (12 bytes: at 1e5 chain bars the calls are most of the recording's
  /// memory); its n_rows · n_cols places, column-major like the block, follow the element's
  /// previous blocks' in `places_`.
  struct Call {
    std::int32_t row, col;  ///< block indices
    std::int16_t n_rows, n_cols;
  };
  /// An element's blocks, and the first of their places.
  struct Calls {
    std::size_t begin = 0, end = 0, place = 0;
  };
  std::vector<Calls> elements_;
  std::vector<Call> calls_;
  std::vector<PetscInt> places_;
  bool recorded_ = false;
};

}  // namespace catena::assembly
