#include "solvers/pseudo_transient.hpp"

#include "solvers/solver_failure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace catena::solvers {

using assembly::check;

PseudoTransientReport PseudoTransient::solve(const fem::TimeElement& time, Vec u, Vec D,
                                             CommittedState::Work work) {
  PseudoTransientReport report;
  PetscBool monitor_flag = PETSC_FALSE;
  check(PetscOptionsHasName(nullptr, nullptr, "-newton_monitor", &monitor_flag), "PetscOptionsHasName");
  const bool monitor = monitor_flag == PETSC_TRUE;
  double sigma = 1.0;  // the shift's factor, before the residual's update
  double last_norm = std::numeric_limits<double>::quiet_NaN();  // ‖f‖ at the last accepted iterate
  double last_size = std::numeric_limits<double>::quiet_NaN();  // its correction
  int retries_in_a_row = 0;
  Vec start_raw = nullptr;
  check(VecDuplicate(u, &start_raw), "VecDuplicate");
  const assembly::VecHandle start(start_raw);  // the iterate a rejected correction starts again from
  check(VecCopy(u, start), "VecCopy");
  while (report.iterations < max_iterations_) {
    // The shift follows the residual of the iterate it corrects (switched evolution relaxation),
    // and at least halves while the residual falls: far from the equilibrium (a pendulum near
    // the horizontal) the residual hardly changes from one correction to the next.
    auto shift_for = [&](double norm) {
      if (retries_in_a_row == 0 && std::isfinite(last_norm) && last_norm > 0.0) {
        const double ratio = norm / last_norm;
        sigma *= ratio < 1.0 ? std::min(ratio, max_shift_ratio) : ratio;
      }
      return std::max(sigma, floor);
    };
    const fem::StepState s = state_->describe(time);
    const ShiftedCorrection c = newton_->correct(s, u, D, shift_for);
    const bool too_long = c.applied && c.size > max_correction;
    if (monitor)
      PetscPrintf(PETSC_COMM_WORLD,
                  "pseudo-transient t %.9g load factor %.6g correction %d |f| %.3e shift %.3e correction %.3e%s\n",
                  time.t_end(), time.load_factor, report.iterations + 1, c.residual_norm, c.shift, c.size,
                  !c.applied ? " failed" : too_long ? " too long" : "");
    if (!c.applied || too_long) {
      // A state without meaning, a matrix singular at this shift, or a step longer than the
      // linearization can be trusted for: the same iterate again with more of the shift.
      if (++retries_in_a_row > max_retries) {
        report.reason = (c.applied ? "corrections stay longer than the limit" : c.failure) +
                        format_numbers(" (shift %.3g times the pseudo-mass)", c.shift);
        return report;
      }
      ++report.retries;
      sigma = std::max(sigma, floor) * (too_long ? 4.0 : 10.0);
      check(VecCopy(start, u), "VecCopy");
      continue;
    }
    retries_in_a_row = 0;
    ++report.iterations;
    report.residual_norms.push_back(c.residual_norm);
    report.last_correction = c.size;
    if (c.residual_norm == 0.0) {
      check(VecCopy(start, u), "VecCopy");
      report.converged = true;
      report.reason = "the residual is exactly zero";
      return report;
    }
    const double theta = c.size / last_size;  // NaN for the first correction
    if (c.size <= tolerance_ && theta < 1.0 && theta / (1.0 - theta) * c.size <= tolerance_) {
      report.converged = true;
      report.reason = "pseudo-transient continuation converged";
      return report;
    }
    last_size = c.size;
    last_norm = c.residual_norm;
    state_->commit(s, u, work);
    state_->linearization_point(u);  // the next correction starts from the committed iterate
    check(VecCopy(u, start), "VecCopy");
  }
  report.reason = "no convergence within " + std::to_string(max_iterations_) + " pseudo-transient corrections";
  return report;
}

}  // namespace catena::solvers
