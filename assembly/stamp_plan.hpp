#pragma once
/// The order in which a rank stamps its elements, arranged so that several threads can stamp at
/// once and the sums come out the same for any number of threads.
///
/// The elements, in the order of their first rows, are cut into contiguous ranges of equal count.
/// Where elements of several ranges write the same block (a node between two ranges), those of
/// the first such range keep it and the others are taken out of their ranges into the interface.
/// The ranges are stamped first, by as many threads as asked (no two ranges write the same
/// entry), then the interface, in order, by one. Every matrix and residual entry is therefore
/// summed in the same order whether one thread or several stamp: results do not depend on the
/// thread count, bit for bit. For that reason the number of ranges depends on the number of
/// elements only, not on the threads: 2 below 32 elements, 4 below 256, else 8 (ranges are
/// handed out as threads become free, which balances two to eight threads on a shared machine;
/// fewer ranges for fewer elements keep the interface, stamped by one thread, small: a chain
/// of elements has one interface element per range boundary).
#include "fem/unknowns.hpp"

#include <petscsys.h>

#include <array>
#include <cstddef>
#include <functional>
#include <span>
#include <utility>
#include <vector>

namespace catena::assembly {

class StampPlan {
 public:
  static constexpr int max_ranges = 8;

  StampPlan() = default;
  /// `by_row`: (first row, element) in stamping order; `blocks_of(i)`: the blocks the i-th of them
  /// writes (those with a free component in `map`; blocks wholly fixed are never written).
  StampPlan(std::span<const std::pair<PetscInt, std::size_t>> by_row,
            const std::function<std::vector<fem::BlockId>(std::size_t)>& blocks_of, std::size_t n_blocks);

  /// Every element once, in the order the sums are taken (ranges, then the interface).
  [[nodiscard]] std::span<const std::size_t> order() const { return order_; }
  /// Elements taken out of the ranges because they share a block with another range.
  [[nodiscard]] std::size_t n_interface() const {
    return order_.size() - range_end_[static_cast<std::size_t>(n_ranges_)];
  }

  /// Calls `stamp(element)` for every element, the ranges on up to `threads` threads. An
  /// exception from a stamp is rethrown after the ranges are done: the first range's that threw
  /// (the one a single thread would have stopped at), and the interface is then not stamped.
  void run(int threads, const std::function<void(std::size_t)>& stamp) const {
    run(threads, [&stamp](int, std::size_t element) { stamp(element); });
  }
  /// The same, telling `f(slot, element)` the range (0 … n_slots() − 2) or the interface
  /// (n_slots() − 1) of the element: sums kept per slot and added in slot order are the same on
  /// any number of threads.
  void run(int threads, const std::function<void(int, std::size_t)>& f) const;
  [[nodiscard]] int n_slots() const { return n_ranges_ + 1; }

 private:
  int n_ranges_ = 0;
  std::vector<std::size_t> order_;
  std::array<std::size_t, max_ranges + 1> range_end_{};  ///< range r is order_[range_end_[r] .. range_end_[r + 1])
};

}  // namespace catena::assembly
