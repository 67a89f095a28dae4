#pragma once
/// What an element derives from the start of a time element alone (the committed configuration
/// and its own history at t_n, with h) is the same at every Newton pass of that time element: a
/// joint's frames and relative coordinates at t_n, a beam's deformations at t_n, a body's
/// momentum. Computed at each pass it was a tenth of a falling chain's run and a sixth of a
/// flexible pendulum's (bench/README.md); kept here, it is computed once per time element.
///
/// The kept value serves while the StepState names the same start (StepState::start_id, drawn
/// anew each time the integrator describes a time element) with the same time element
/// (StepState::time); an unnamed start (0) is recomputed at every call. The step's gravity is not
/// compared: every description of a named start carries the model's. The value is the same
/// either way, to the bit: only the number of times it is computed changes.
#include "fem/step_state.hpp"

#include <memory>

namespace catena::fem {

/// `T` may be incomplete where the cache is declared (an element's private start type): the
/// value lives behind a pointer, and the owner's destructor must be defined where T is complete.
template <class T>
class StartCache {
 public:
  /// The value for the start of `s`: `make()` when it is not kept for that start.
  template <class Make>
  const T& get(const StepState& s, Make&& make) const {
    if (!value_ || s.start_id == 0 || s.start_id != id_ || s.time != time_) {
      if (value_)
        *value_ = make();
      else
        value_ = std::make_unique<T>(make());
      id_ = s.start_id;
      time_ = s.time;
    }
    return *value_;
  }

 private:
  mutable std::unique_ptr<T> value_;
  mutable std::uint64_t id_ = 0;
  mutable TimeElement time_;
};

}  // namespace catena::fem
