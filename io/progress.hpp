#pragma once
/// Progress of a long run on stderr: a single updating line on a terminal (simulated time, step,
/// Newton iterations, ETA), plain log lines every few seconds otherwise. Silent with --quiet.
#include "solvers/integrator_state.hpp"
#include "solvers/observer.hpp"

#include <chrono>
#include <optional>
#include <vector>

namespace catena::io {

class ProgressReporter final : public solvers::Observer {
 public:
  explicit ProgressReporter(bool quiet);
  ~ProgressReporter() override;
  void on_progress(const solvers::Progress& p) override;
  /// Ends the updating line (if any) so later messages start on a fresh line.
  void finish();

 private:
  bool quiet_;
  bool terminal_;
  bool line_open_ = false;
  double last_print_ = -1e9;
};

/// Sends every report to several observers, in order.
class ObserverFanOut final : public solvers::Observer {
 public:
  void add(solvers::Observer& o) { observers_.push_back(&o); }
  // Each report's time is kept before it is handed on, so that when a writer fails the run
  // can still say how far it got.
  void on_frame(const solvers::Frame& f) override {
    reached(f.t);
    for (auto* o : observers_) o->on_frame(f);
  }
  void on_progress(const solvers::Progress& p) override {
    reached(p.t);
    for (auto* o : observers_) o->on_progress(p);
  }
  void on_checkpoint(const solvers::IntegratorState& s) override {
    reached(s.t);
    for (auto* o : observers_) o->on_checkpoint(s);
  }
  /// The latest time of any report handed on (also one a writer failed on), if any [s].
  [[nodiscard]] std::optional<double> latest_t() const { return latest_t_; }

 private:
  std::vector<solvers::Observer*> observers_;
  void reached(double t) {
    if (!latest_t_ || t > *latest_t_) latest_t_ = t;
  }
  std::optional<double> latest_t_;
};

}  // namespace catena::io
