#include "fem/step_state.hpp"

#include <atomic>

namespace catena::fem {

std::uint64_t new_start_id() {
  static std::atomic<std::uint64_t> last{0};
  return ++last;
}

}  // namespace catena::fem
