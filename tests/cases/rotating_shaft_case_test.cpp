// rotating-shaft (Bauchau et al. 2016, §d; cases/rotating-shaft): a shaft with an unbalanced disk
// driven through its critical speed. The short run (0 ... 1.5 s, the passage and the largest
// whirl) against the closed-form static start, the drive's law, the energy balance with the
// drive's work and Catena's converged solution (reference.yaml, reference.csv; README.md).
#include "support/case_reference.hpp"
#include "support/case_runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

namespace catena {
namespace {

using testing::CaseReference;
using testing::CaseRun;
using testing::run_case;
using testing::record;
using testing::sensor_index;

/// The prescribed spin angle of end 1 [rad] (reference.yaml's drive).
double spin_angle(double t, const CaseReference& ref) {
  const double W1 = ref.number("drive/W1"), W2 = ref.number("drive/W2");
  const double T1 = ref.number("drive/T1"), T2 = ref.number("drive/T2"), T3 = ref.number("drive/T3");
  constexpr double pi = std::numbers::pi;
  if (t <= T1) return W1 / 2 * (t - T1 / pi * std::sin(pi * t / T1));
  if (t <= T2) return W1 * (t - T1 / 2);
  if (t <= T3) return W1 * (t - T1 / 2) + (W2 - W1) / 2 * ((t - T2) - (T3 - T2) / pi * std::sin(pi * (t - T2) / (T3 - T2)));
  return W1 * (t - T1 / 2) + (W2 - W1) / 2 * (T3 - T2) + (W2 - W1) * (t - T3);
}

/// A sensor's history interpolated linearly at time s (the run writes a row every step).
double sensor_at(const CaseRun& c, std::size_t sensor, double s) {
  const auto& rows = c.rec.rows;
  const auto hi = std::lower_bound(rows.begin(), rows.end(), s, [](const auto& r, double v) { return r.t < v; });
  if (hi == rows.begin()) return rows.front().sensors[sensor];
  if (hi == rows.end()) return rows.back().sensors[sensor];
  const auto lo = hi - 1;
  const double w = (s - lo->t) / (hi->t - lo->t);
  return (1 - w) * lo->sensors[sensor] + w * hi->sensors[sensor];
}

TEST(CaseRotatingShaft, PassesTheCriticalSpeedAsTheConvergedSolution) {
  const CaseReference ref("rotating-shaft");
  const int elements = static_cast<int>(ref.number("elements"));
  const double passage = ref.number("passage_end"), h = ref.number("L") / elements;
  const CaseRun c = run_case("rotating-shaft", {"n=" + std::to_string(elements), "analysis.t_end=" + std::to_string(passage)});
  const auto& rows = c.rec.rows;
  ASSERT_NEAR(rows.back().t, passage, 1e-9);
  EXPECT_EQ(c.stats.cut_steps, 0);

  const std::size_t iy = sensor_index(c.model, "disk_uy"), iz = sensor_index(c.model, "disk_uz");
  const std::size_t iyr = sensor_index(c.model, "disk_uy_rot"), izr = sensor_index(c.model, "disk_uz_rot");
  const std::size_t imy = sensor_index(c.model, "M_y"), imz = sensor_index(c.model, "M_z");
  const std::size_t iqy = sensor_index(c.model, "Q_y"), iqz = sensor_index(c.model, "Q_z");
  const std::size_t ia = sensor_index(c.model, "spin_angle");
  // The moment at the disk's section: the end of the element next to it, along which it is linear.
  auto disk_moment = [&](const testing::RecordingObserver::Row& r) {
    return std::hypot(r.sensors[imy] + r.sensors[iqz] * h / 2, r.sensors[imz] - r.sensors[iqy] * h / 2);
  };

  // The static sag under gravity at t = 0 (analysis.initial_equilibrium), against the closed form.
  const double sag = ref.number("static/sag"), moment = ref.number("static/moment");
  EXPECT_NEAR(rows.front().sensors[iz], sag, ref.number("static/sag_tolerance") * std::abs(sag));
  EXPECT_NEAR(rows.front().sensors[iy], 0.0, 1e-12);
  EXPECT_NEAR(disk_moment(rows.front()), moment, ref.number("static/moment_tolerance") * moment);

  // The drive follows its law; the balance with the drive's work stays constant.
  for (const auto& r : rows) EXPECT_NEAR(r.sensors[ia], spin_angle(r.t, ref), ref.number("spin_tolerance")) << "t = " << r.t;
  const double drift = c.rec.max_balance_drift() / ref.number("energy_scale");
  record("energy_drift", drift);
  EXPECT_LT(drift, ref.number("energy_tolerance"));

  // The largest whirl and moment after the critical speed, against the converged solution.
  double radial = 0.0, radial_time = 0.0, largest_moment = 0.0, moment_time = 0.0;
  for (const auto& r : rows) {
    if (const double u = std::hypot(r.sensors[iy], r.sensors[iz]); u > radial) {
      radial = u;
      radial_time = r.t;
    }
    if (const double m = disk_moment(r); m > largest_moment) {
      largest_moment = m;
      moment_time = r.t;
    }
  }
  record("largest_radial", radial);
  record("largest_radial_time", radial_time);
  record("largest_moment", largest_moment);
  const double r_ref = ref.number("converged/largest_radial"), m_ref = ref.number("converged/largest_moment");
  EXPECT_NEAR(radial, r_ref, ref.number("tolerances/largest") * r_ref);
  EXPECT_NEAR(radial_time, ref.number("converged/largest_radial_time"), ref.number("tolerances/time"));
  EXPECT_NEAR(largest_moment, m_ref, ref.number("tolerances/largest") * m_ref);
  EXPECT_NEAR(moment_time, ref.number("converged/largest_moment_time"), ref.number("tolerances/time"));

  // The whole history, global and in the axes turning with end 1, against reference.csv, at its
  // times (every 5 ms; the run has rows there, so the fast whirl is not interpolated).
  const std::vector<double>& tc = ref.csv_column("t");
  double global = 0.0, turning = 0.0;
  for (std::size_t k = 0; k < tc.size() && tc[k] <= passage + 1e-9; ++k) {
    const double s = tc[k];
    global = std::max(global, std::hypot(sensor_at(c, iy, s) - ref.csv_column("disk_uy")[k],
                                         sensor_at(c, iz, s) - ref.csv_column("disk_uz")[k]));
    turning = std::max(turning, std::hypot(sensor_at(c, iyr, s) - ref.csv_column("disk_uy_rot")[k],
                                           sensor_at(c, izr, s) - ref.csv_column("disk_uz_rot")[k]));
  }
  record("history_distance", global / r_ref);
  record("history_distance_turning", turning / r_ref);
  EXPECT_LT(global, ref.number("tolerances/history") * r_ref);
  EXPECT_LT(turning, ref.number("tolerances/history") * r_ref);
  // Radial displacement is the same in both frames (the frame of end 1 turns about the shaft's axis).
  for (const auto& r : rows)
    EXPECT_NEAR(std::hypot(r.sensors[iyr], r.sensors[izr]), std::hypot(r.sensors[iy], r.sensors[iz]), 1e-12) << "t = " << r.t;
}

}  // namespace
}  // namespace catena
