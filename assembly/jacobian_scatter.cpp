#include "assembly/jacobian_scatter.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace catena::assembly {

void JacobianScatter::clear() {
  std::fill(elements_.begin(), elements_.end(), Calls{});
  calls_.clear();
  places_.clear();
  recorded_ = false;
}

void JacobianScatter::Recorder::begin_element(std::size_t element) {
  element_ = element;
  scatter_.elements_.at(element) = {scatter_.calls_.size(), scatter_.calls_.size(), scatter_.places_.size()};
}

void JacobianScatter::Recorder::add(fem::BlockId row, fem::BlockId col, const double* values, int n_rows,
                                    int n_cols) {
  const auto rows = target_.map->dofs(row);
  const auto cols = target_.map->dofs(col);
  JacobianScatter& s = scatter_;
  if (n_rows > std::numeric_limits<std::int16_t>::max() || n_cols > std::numeric_limits<std::int16_t>::max())
    throw PetscFailure("a Jacobian block of " + std::to_string(n_rows) + " x " + std::to_string(n_cols) +
                       " values is larger than a recorded block may be");
  s.calls_.push_back({row.index, col.index, static_cast<std::int16_t>(n_rows), static_cast<std::int16_t>(n_cols)});
  s.elements_[element_].end = s.calls_.size();
  for (int j = 0; j < n_cols; ++j) {
    const PetscInt c = cols[static_cast<std::size_t>(j)];
    for (int i = 0; i < n_rows; ++i) {
      const PetscInt r = rows[static_cast<std::size_t>(i)];
      const double v = values[i + j * n_rows];
      if (r == fem::fixed_dof || c == fem::fixed_dof) {
        s.places_.push_back(fixed);
      } else if (r < target_.first || r >= target_.last) {
        s.places_.push_back(other_rank);
        check(MatSetValues(target_.others, 1, &r, 1, &c, &v, ADD_VALUES), "MatSetValues");
      } else {
        const auto local = static_cast<std::size_t>(r - target_.first);
        const PetscInt* const begin = target_.columns.data() + target_.offsets[local];
        const PetscInt* const end = target_.columns.data() + target_.offsets[local + 1];
        const PetscInt* at = std::lower_bound(begin, end, c);
        if (at == end || *at != c)
          throw PetscFailure("a stamp outside the Jacobian's declared pattern (row " + std::to_string(r) +
                             ", column " + std::to_string(c) + ")");
        const auto place = static_cast<PetscInt>(at - target_.columns.data());
        s.places_.push_back(place);
        target_.values[place] += v;
      }
    }
  }
}

JacobianScatter::Replay::Replay(const JacobianScatter& scatter, const CsrTarget& target)
    : scatter_(&scatter), target_(target),
      search_(target.values, target.offsets, target.columns, *target.map, target.first, target.last, target.others) {}

void JacobianScatter::Replay::begin_element(std::size_t element) {
  const Calls& calls = scatter_->elements_[element];
  call_ = calls.begin;
  end_ = calls.end;
  place_ = calls.place;
  on_record_ = true;
}

void JacobianScatter::Replay::add(fem::BlockId row, fem::BlockId col, const double* values, int n_rows, int n_cols) {
  if (on_record_ && call_ < end_) {
    const Call& call = scatter_->calls_[call_];
    on_record_ = call.row == row.index && call.col == col.index && call.n_rows == n_rows && call.n_cols == n_cols;
  } else {
    on_record_ = false;
  }
  if (!on_record_) return search_.add(row, col, values, n_rows, n_cols);
  const int n = n_rows * n_cols;
  const PetscInt* const places = scatter_->places_.data() + place_;
  ++call_;
  place_ += static_cast<std::size_t>(n);
  for (int k = 0; k < n; ++k) {
    const PetscInt place = places[k];
    if (place >= 0) {
      target_.values[place] += values[k];
    } else if (place == other_rank) {
      const PetscInt r = target_.map->dofs(row)[static_cast<std::size_t>(k % n_rows)];
      const PetscInt c = target_.map->dofs(col)[static_cast<std::size_t>(k / n_rows)];
      check(MatSetValues(target_.others, 1, &r, 1, &c, values + k, ADD_VALUES), "MatSetValues");
    }
  }
}

}  // namespace catena::assembly
