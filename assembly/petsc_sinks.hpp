#pragma once
/// The fem sinks implemented on PETSc: blocks map to global rows through the tableau's DofMap,
/// fixed components (-1) are skipped, values are added.
#include "assembly/petsc_handle.hpp"
#include "fem/sinks.hpp"
#include "fem/unknowns.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <type_traits>

namespace catena::assembly {

static_assert(std::is_same_v<PetscInt, fem::Dof>, "PETSc index type must match fem::Dof");

/// Adds the owned rows straight into the vector's array (checked out by the caller for the whole
/// assembly) and only the other ranks' rows through VecSetValues: per value, VecSetValues costs a
/// function call and an ownership test, 3 % of a 1 000-bar chain's run.
class OwnedRowsResidualSink final : public fem::ResidualSink {
 public:
  OwnedRowsResidualSink(Vec f, PetscScalar* owned, PetscInt first, PetscInt last, const fem::DofMap& map)
      : f_(f), owned_(owned), first_(first), last_(last), map_(&map) {}
  void add(fem::BlockId b, const double* values, int n) override {
    const auto dofs = map_->dofs(b);
    for (int i = 0; i < n; ++i) {
      const PetscInt d = dofs[static_cast<std::size_t>(i)];
      if (d >= first_ && d < last_)
        owned_[d - first_] += values[i];
      else if (d != fem::fixed_dof)
        check(VecSetValues(f_, 1, &d, values + i, ADD_VALUES), "VecSetValues");
    }
  }

 private:
  Vec f_;
  PetscScalar* owned_;
  PetscInt first_, last_;
  const fem::DofMap* map_;
};

/// Adds blocks straight into values laid out as the rows `first .. last` of the tableau's pattern:
/// row r holds exactly the columns `columns[offsets[r − first] .. offsets[r − first + 1])`,
/// ascending (checked against the matrix when it is set up). One search per block row instead of
/// MatSetValues' per-value search and calls, which took 8 % of a 1 000-bar chain's run. Rows of
/// other ranks (MPI) go through MatSetValues into `others`. A stamp outside the pattern throws, as
/// MAT_NEW_NONZERO_LOCATION_ERR does on the MatSetValues path.
class CsrJacobianSink final : public fem::JacobianSink {
 public:
  CsrJacobianSink(PetscScalar* values, std::span<const PetscInt> offsets, std::span<const PetscInt> columns,
                  const fem::DofMap& map, PetscInt first = 0, PetscInt last = 0, Mat others = nullptr)
      : values_(values), offsets_(offsets), columns_(columns), map_(&map), first_(first),
        last_(others ? last : static_cast<PetscInt>(offsets.size()) - 1 + first), others_(others) {}
  void add(fem::BlockId row, fem::BlockId col, const double* values, int n_rows, int n_cols) override {
    const auto rows = map_->dofs(row);
    const auto cols = map_->dofs(col);
    for (int i = 0; i < n_rows; ++i) {
      const PetscInt r = rows[static_cast<std::size_t>(i)];
      if (r == fem::fixed_dof) continue;
      if (r < first_ || r >= last_) {  // another rank's row; fixed columns (−1) are skipped
        for (int j = 0; j < n_cols; ++j)
          check(MatSetValues(others_, 1, &r, 1, &cols[static_cast<std::size_t>(j)], values + i + j * n_rows,
                             ADD_VALUES),
                "MatSetValues");
        continue;
      }
      const auto local = static_cast<std::size_t>(r - first_);
      const PetscInt* const begin = columns_.data() + offsets_[local];
      const PetscInt* const end = columns_.data() + offsets_[local + 1];
      const PetscInt* at = begin;
      for (int j = 0; j < n_cols; ++j) {
        const PetscInt c = cols[static_cast<std::size_t>(j)];
        if (c == fem::fixed_dof) continue;
        // A block's columns ascend, mostly one after the other: the next entry first, else a
        // search from the last one found.
        if (at + 1 < end && at[1] == c)
          ++at;
        else
          at = std::lower_bound(at != end && *at < c ? at : begin, end, c);
        if (at == end || *at != c)
          throw PetscFailure("a stamp outside the Jacobian's declared pattern (row " + std::to_string(r) +
                             ", column " + std::to_string(c) + ")");
        values_[at - columns_.data()] += values[i + j * n_rows];
      }
    }
  }

 private:
  PetscScalar* values_;
  std::span<const PetscInt> offsets_, columns_;
  const fem::DofMap* map_;
  PetscInt first_, last_;
  Mat others_;
};

/// Expects J with MAT_ROW_ORIENTED false (Eigen blocks are column-major).
class PetscJacobianSink final : public fem::JacobianSink {
 public:
  PetscJacobianSink(Mat J, const fem::DofMap& map) : J_(J), map_(&map) {}
  void add(fem::BlockId row, fem::BlockId col, const double* values, int n_rows, int n_cols) override {
    check(MatSetValues(J_, n_rows, map_->dofs(row).data(), n_cols, map_->dofs(col).data(), values, ADD_VALUES),
          "MatSetValues");
  }

 private:
  Mat J_;
  const fem::DofMap* map_;
};

}  // namespace catena::assembly
