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
  bool truncated = false;  // the last accepted correction was cut to max_correction
  Vec start_raw = nullptr;
  check(VecDuplicate(u, &start_raw), "VecDuplicate");
  const assembly::VecHandle start(start_raw);  // the iterate a rejected correction starts again from
  check(VecCopy(u, start), "VecCopy");
  while (report.iterations < max_iterations_) {
    // The shift follows the residual of the iterate it corrects where that falls fast (switched
    // evolution relaxation), and halves at least after every accepted correction: far from the
    // equilibrium the residual hardly changes (a pendulum near the horizontal) or grows (one
    // falling from near the top), and a shift that followed it would stay put. It grows only
    // when a correction is refused (below).
    auto shift_for = [&](double norm) {
      if (retries_in_a_row == 0 && std::isfinite(last_norm) && last_norm > 0.0)
        sigma *= truncated ? 2.0 : std::min(norm / last_norm, max_shift_ratio);
      return std::max(sigma, floor);
    };
    const fem::StepState s = state_->describe(time);
    const ShiftedCorrection c = newton_->correct(s, u, D, shift_for);
    // Uphill: the shifted tangent is not positive along the step (a pendulum near the top, whose
    // Newton step would climb to the unstable equilibrium); refused for a larger shift while that
    // still matters, not once the step is below the tolerance. Tested only after a whole
    // correction was accepted: that meets the constraints and the joints' force laws (their rows
    // are linear in the multipliers), whose residuals otherwise enter δuᵀ f with either sign (a
    // four-bar's torsion spring far from its rest angle, a correction cut short).
    const bool uphill =
        c.applied && report.iterations > 0 && !truncated && c.descent < 0.0 && c.size > tolerance_;
    // A step longer than the linearization can be trusted for is cut to the limit along its
    // direction (its factorization is not wasted), and the next shift is doubled instead of halved.
    truncated = c.applied && !uphill && c.size > max_correction;
    if (truncated) {
      const double fraction = max_correction / c.size;
      check(VecAXPBY(u, 1.0 - fraction, fraction, start), "VecAXPBY");  // u = start + fraction (u − start)
    }
    if (monitor)
      PetscPrintf(PETSC_COMM_WORLD,
                  "pseudo-transient t %.9g load factor %.6g correction %d |f| %.3e shift %.3e correction %.3e%s\n",
                  time.t_end(), time.load_factor, report.iterations + 1, c.residual_norm, c.shift, c.size,
                  !c.applied ? " failed" : uphill ? " uphill" : truncated ? " cut to the limit" : "");
    if (!c.applied || uphill) {
      // A state without meaning, a matrix singular at this shift, or a step uphill: the same
      // iterate again with more of the shift.
      if (++retries_in_a_row > max_retries) {
        report.reason = (!c.applied ? c.failure : "corrections stay uphill") +
                        format_numbers(" (shift %.3g times the pseudo-mass)", c.shift);
        return report;
      }
      sigma = std::max(sigma, floor) * (c.applied ? 4.0 : 10.0);
      truncated = false;
      check(VecCopy(start, u), "VecCopy");
      continue;
    }
    retries_in_a_row = 0;
    ++report.iterations;
    report.residual_norms.push_back(c.residual_norm);
    report.last_correction = std::min(c.size, max_correction);
    if (c.residual_norm == 0.0) {
      check(VecCopy(start, u), "VecCopy");
      report.converged = true;
      report.reason = "the residual is exactly zero";
      return report;
    }
    const double theta = c.size / last_size;  // NaN for the first correction
    // A correction that is exactly zero: a start already at the equilibrium.
    if (c.size == 0.0 || (c.size <= tolerance_ && theta < 1.0 && theta / (1.0 - theta) * c.size <= tolerance_)) {
      report.converged = true;
      report.reason = "pseudo-transient continuation converged";
      return report;
    }
    last_size = std::min(c.size, max_correction);
    last_norm = c.residual_norm;
    state_->commit(s, u, work);
    state_->linearization_point(u);  // the next correction starts from the committed iterate
    check(VecCopy(u, start), "VecCopy");
  }
  report.reason = "no convergence within " + std::to_string(max_iterations_) + " pseudo-transient corrections";
  return report;
}

}  // namespace catena::solvers
