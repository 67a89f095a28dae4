#include "assembly/stamp_plan.hpp"

#include <algorithm>
#include <exception>

namespace catena::assembly {

StampPlan::StampPlan(std::span<const std::pair<PetscInt, std::size_t>> by_row,
                     const std::function<std::vector<fem::BlockId>(std::size_t)>& blocks_of, std::size_t n_blocks) {
  const std::size_t n = by_row.size();
  n_ranges_ = n >= 256 ? max_ranges : n >= 32 ? max_ranges / 2 : 2;
  auto range_of = [n, this](std::size_t i) { return static_cast<int>(i * static_cast<std::size_t>(n_ranges_) / n); };
  // The first range that writes each block keeps the elements that write it; another range's
  // element that writes it goes to the interface.
  std::vector<int> first_writer(n_blocks, n_ranges_);
  std::vector<std::vector<fem::BlockId>> blocks(n);
  for (std::size_t i = 0; i < n; ++i) {
    blocks[i] = blocks_of(i);
    for (const fem::BlockId b : blocks[i]) {
      int& w = first_writer[static_cast<std::size_t>(b.index)];
      w = std::min(w, range_of(i));
    }
  }
  std::vector<std::size_t> interface;
  std::size_t i = 0;
  for (int r = 0; r < n_ranges_; ++r) {
    for (; i < n && range_of(i) == r; ++i) {
      bool kept = true;
      for (const fem::BlockId b : blocks[i]) kept = kept && first_writer[static_cast<std::size_t>(b.index)] == r;
      (kept ? order_ : interface).push_back(by_row[i].second);
    }
    range_end_[static_cast<std::size_t>(r) + 1] = order_.size();
  }
  order_.insert(order_.end(), interface.begin(), interface.end());
}

void StampPlan::run(int threads, const std::function<void(int, std::size_t)>& f) const {
  std::array<std::exception_ptr, max_ranges> failed;
  auto run_range = [&](int r) {
    const auto range = static_cast<std::size_t>(r);
    try {
      for (std::size_t k = range_end_[range]; k < range_end_[range + 1]; ++k) f(r, order_[k]);
    } catch (...) {
      failed[static_cast<std::size_t>(r)] = std::current_exception();
    }
  };
  if (threads > 1) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (int r = 0; r < n_ranges_; ++r) run_range(r);
  } else {
    for (int r = 0; r < n_ranges_; ++r) {
      run_range(r);
      if (failed[static_cast<std::size_t>(r)]) break;
    }
  }
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
  for (std::size_t k = range_end_[static_cast<std::size_t>(n_ranges_)]; k < order_.size(); ++k) f(n_ranges_, order_[k]);
}

}  // namespace catena::assembly
