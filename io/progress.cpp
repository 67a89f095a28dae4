#include "io/progress.hpp"

#include <cstdio>
#include <unistd.h>

namespace catena::io {

ProgressReporter::ProgressReporter(bool quiet) : quiet_(quiet), terminal_(isatty(STDERR_FILENO) != 0) {}

ProgressReporter::~ProgressReporter() { finish(); }

void ProgressReporter::finish() {
  if (line_open_) std::fputc('\n', stderr);
  line_open_ = false;
}

void ProgressReporter::on_progress(const solvers::Progress& p) {
  if (quiet_) return;
  // A terminal line is cheap to refresh; a log file gets one line every 5 s and the last one.
  const double interval = terminal_ ? 0.2 : 5.0;
  const bool last = p.t >= p.t_end;
  if (p.wall_seconds - last_print_ < interval && !last) return;
  last_print_ = p.wall_seconds;
  const double fraction = p.t_end > 0 ? p.t / p.t_end : 1.0;
  // The rate of this process (a restarted run started at t_start, not at 0).
  const double done_here = p.t_end > p.t_start ? (p.t - p.t_start) / (p.t_end - p.t_start) : 1.0;
  const double eta = done_here > 0 ? p.wall_seconds * (1.0 - done_here) / done_here : 0.0;
  if (terminal_) {
    std::fprintf(stderr, "\r  t = %.6g / %.6g s  step %ld  newton %d  %5.1f%%  elapsed %.1f s  eta %.1f s   ", p.t,
                 p.t_end, p.step, p.newton_iterations, 100.0 * fraction, p.wall_seconds, eta);
    line_open_ = true;
  } else {
    std::fprintf(stderr, "progress: t = %.6g / %.6g s, step %ld, newton %d, %.1f%%, elapsed %.1f s, eta %.1f s\n",
                 p.t, p.t_end, p.step, p.newton_iterations, 100.0 * fraction, p.wall_seconds, eta);
  }
  std::fflush(stderr);
}

}  // namespace catena::io
