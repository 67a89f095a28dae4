#pragma once
/// Progress of a long run on stderr: a single updating line on a terminal (simulated time, step,
/// Newton iterations, ETA), plain log lines every few seconds otherwise. Silent with --quiet.
#include "solvers/observer.hpp"

#include <chrono>

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
  void on_frame(const solvers::Frame& f) override {
    for (auto* o : observers_) o->on_frame(f);
  }
  void on_progress(const solvers::Progress& p) override {
    for (auto* o : observers_) o->on_progress(p);
  }
  void on_checkpoint(const solvers::IntegratorState& s) override {
    for (auto* o : observers_) o->on_checkpoint(s);
  }

 private:
  std::vector<solvers::Observer*> observers_;
};

}  // namespace catena::io
