#pragma once
/// Ctrl-C while C++ solves without the GIL (Simulation.advance and .run): Python's own handler
/// would only note the signal, to be seen when the whole call returns. While a StopOnInterrupt
/// lives, SIGINT sets the simulation's stop flag instead, so that the run stops after the current
/// step as `catena run` does (a last row and frame, a checkpoint when checkpoints are on); the
/// signal is handed back to Python afterwards (KeyboardInterrupt).
#include <atomic>
#include <csignal>

namespace catena::python {

class StopOnInterrupt {
 public:
  /// Takes SIGINT over only in Python's main thread and when Python's handler is its default one
  /// (a handler the user set, or SIGINT ignored, stays as it is).
  explicit StopOnInterrupt(std::atomic<bool>& stop);
  ~StopOnInterrupt();
  StopOnInterrupt(const StopOnInterrupt&) = delete;
  StopOnInterrupt& operator=(const StopOnInterrupt&) = delete;

  /// Gives SIGINT back to Python; raises KeyboardInterrupt (pybind11::error_already_set) when one
  /// came meanwhile.
  void hand_back();

 private:
  bool installed_ = false;
  struct sigaction python_{};
};

}  // namespace catena::python
