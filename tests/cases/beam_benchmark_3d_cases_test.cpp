// The classic 3D beam benchmarks of issue 17 whose literature gives curves only: right-angle-cantilever
// (Simo & Vu-Quoc 1988) and flying-spaghetti-3d (Simo, Tarnow & Doblare 1995). Each model file is run
// in-process (the short versions) and checked against our converged solution, reference.csv, and the
// tolerances of its reference.yaml; conservation once the loads are gone; and, for the right-angle
// cantilever, the rigid 90-degree elbow two beams make by sharing a frame node, against a closed form.
#include "support/case_reference.hpp"
#include "support/case_runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace catena {
namespace {

using testing::CaseReference;
using testing::CaseRun;
using testing::run_case;
using testing::sensor_index;

/// Largest |sensor(t_k) − reference.csv's column(t_k)| over reference.csv's times t_k up to the
/// end of the run (the sensor interpolated linearly between frames), and the t_k where it is.
std::pair<double, double> history_deviation(const CaseRun& c, const CaseReference& ref, const std::string& sensor) {
  const std::size_t i = sensor_index(c.model, sensor);
  const std::vector<double>& t_ref = ref.csv_column("t");
  const std::vector<double>& y_ref = ref.csv_column(sensor);
  const auto& rows = c.rec.rows;
  std::pair<double, double> worst{0.0, 0.0};
  std::size_t k = 1;
  for (std::size_t j = 0; j < t_ref.size() && t_ref[j] <= rows.back().t + 1e-9; ++j) {
    while (k + 1 < rows.size() && rows[k].t < t_ref[j]) ++k;
    const auto& a = rows[k - 1];
    const auto& b = rows[k];
    const double w = std::clamp((t_ref[j] - a.t) / (b.t - a.t), 0.0, 1.0);
    const double y = (1 - w) * a.sensors[i] + w * b.sensors[i];
    if (std::abs(y - y_ref[j]) > worst.first) worst = {std::abs(y - y_ref[j]), t_ref[j]};
  }
  return worst;
}

/// (value, time) of a sensor's largest (sign +1) or smallest (sign −1) value over [t_from, t_to],
/// refined by the parabola through that frame and its neighbours (equally spaced frames), as
/// tools/validation/measures.py's extremum.
std::pair<double, double> extremum(const CaseRun& c, const std::string& sensor, double sign, double t_from, double t_to) {
  const std::size_t i = sensor_index(c.model, sensor);
  const auto& rows = c.rec.rows;
  std::size_t best = rows.size();
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (rows[k].t >= t_from - 1e-9 && rows[k].t <= t_to + 1e-9 &&
        (best == rows.size() || sign * rows[k].sensors[i] > sign * rows[best].sensors[i]))
      best = k;
  if (best == rows.size()) throw std::runtime_error("no frame in [" + std::to_string(t_from) + ", " + std::to_string(t_to) + "]");
  if (best == 0 || best + 1 == rows.size()) return {rows[best].sensors[i], rows[best].t};
  const double a = sign * rows[best - 1].sensors[i], b = sign * rows[best].sensors[i], d = sign * rows[best + 1].sensors[i];
  const double shift = 0.5 * (a - d) / (a - 2 * b + d);  // in frames, within [-1/2, 1/2]
  return {sign * (b - 0.25 * (a - d) * shift), rows[best].t + shift * (rows[best + 1].t - rows[best].t)};
}

// ---------------------------------------------------------------------------------------------
// right-angle-cantilever: two legs of 10 joined at 90 degrees at the frame node `elbow`.

TEST(CaseRightAngleCantilever, StaticTipForceBendsAndTwistsThroughARigidElbow) {
  // A small force F along z at the tip, statically: leg 2 bends on the elbow, and the elbow passes
  // the moment F L on to leg 1 as a torque. Were the legs' ends not held at 90 degrees to each
  // other by the shared node (a hinge, or leg 2 not turning with leg 1's twist), the tip would not
  // see leg 1's twist, F L^3/GJ, which is 60 % of its deflection here.
  const CaseReference ref("right-angle-cantilever");
  const double F = ref.number("rigid_joint/F"), L = ref.number("rigid_joint/L"), EI = ref.number("rigid_joint/EI"),
               GJ = ref.number("rigid_joint/GJ"), GA = ref.number("rigid_joint/GA");
  const CaseRun c = run_case("right-angle-cantilever", {"analysis.type=static", "analysis.dt=1", "analysis.t_end=1",
                                                        "loads.push.node=tip", "loads.push.force.2=" + std::to_string(F) + "*t"});
  ASSERT_NEAR(c.rec.rows.back().t, 1.0, 1e-12);
  const auto final_value = [&](const std::string& s) { return testing::final_value(c, s); };
  const double tolerance = ref.number("rigid_joint/tolerance");
  const double tip = F * (2 * L * L * L / (3 * EI) + L * L * L / GJ + 2 * L / GA);
  const double elbow = F * (L * L * L / (3 * EI) + L / GA);
  EXPECT_NEAR(final_value("tip_uz"), tip, tolerance * tip);
  EXPECT_NEAR(final_value("elbow_uz"), elbow, tolerance * elbow);
  EXPECT_NEAR(final_value("elbow_rx"), F * L * L / GJ, tolerance * F * L * L / GJ);                // leg 1's twist
  EXPECT_NEAR(final_value("elbow_ry"), -F * L * L / (2 * EI), tolerance * F * L * L / (2 * EI));  // leg 1's slope
}

TEST(CaseRightAngleCantilever, FollowsTheConvergedSolutionAndKeepsItsEnergy) {
  // The validation suite's short version: to t = 17 s, past the tip's first minimum.
  const CaseReference ref("right-angle-cantilever");
  const CaseRun c = run_case("right-angle-cantilever", {"analysis.t_end=17"});
  ASSERT_NEAR(c.rec.rows.back().t, 17.0, 1e-9);
  EXPECT_EQ(c.stats.cut_steps, 0);
  for (const std::string sensor : {"tip_uz", "elbow_uz"}) {
    const auto [deviation, at] = history_deviation(c, ref, sensor);
    EXPECT_LT(deviation, ref.number("history_tolerance")) << sensor << " at t = " << at;
  }
  struct Extremum {
    std::string name, sensor;
    double sign;
  };
  for (const Extremum& e : {Extremum{"tip_max", "tip_uz", 1}, Extremum{"tip_min", "tip_uz", -1},
                            Extremum{"elbow_max", "elbow_uz", 1}, Extremum{"elbow_min", "elbow_uz", -1}}) {
    const std::string key = "extrema/" + e.name + "/";
    const auto [value, when] = extremum(c, e.sensor, e.sign, ref.number(key + "from"), ref.number(key + "to"));
    EXPECT_NEAR(value, ref.number(key + "value"), ref.number("extremum_tolerance")) << e.name;
    EXPECT_NEAR(when, ref.number(key + "t"), ref.number("extremum_time_tolerance")) << e.name;
  }
  // Energy: the force's work balances over the whole run; once it is gone (t = 2), kinetic +
  // strain energy stays constant.
  const double t_free = ref.number("t_free");
  const auto& e2 = c.rec.row_at(t_free).energy.state;
  const double scale = e2.kinetic + e2.strain;  // the energy the force has put in
  ASSERT_GT(scale, 50.0);
  const double tolerance = ref.number("energy_tolerance") * scale;
  EXPECT_LT(c.rec.max_balance_drift(), tolerance);
  EXPECT_LT(c.rec.drifts_after(t_free).mechanical, tolerance);
}

// ---------------------------------------------------------------------------------------------
// flying-spaghetti-3d: a free beam pushed by dead loads until t = 5, then flying freely.

TEST(CaseFlyingSpaghetti3d, FreeFlightKeepsEnergyAndMomentaAndFollowsTheConvergedSolution) {
  // The validation suite's short version: to t = 10 s.
  const CaseReference ref("flying-spaghetti-3d");
  const CaseRun c = run_case("flying-spaghetti-3d", {"analysis.t_end=10"});
  ASSERT_NEAR(c.rec.rows.back().t, 10.0, 1e-9);
  EXPECT_EQ(c.stats.cut_steps, 0);
  const double t_free = ref.number("t_free");
  testing::expect_free_flight_conserved(c, t_free, ref.number("energy_tolerance"));
  const auto& e5 = c.rec.row_at(t_free).energy.state;
  const double tolerance = ref.number("energy_tolerance") * (e5.kinetic + e5.strain);
  // The dead force F_x = M_y/10 gives the beam the impulse 50 N s along x (and nothing else does).
  EXPECT_NEAR(e5.momentum.x() - c.rec.rows.front().energy.state.momentum.x(), ref.number("impulse_x"), tolerance);
  // The end point's path.
  for (const std::string sensor : {"b_x", "b_y", "b_z"}) {
    const auto [deviation, at] = history_deviation(c, ref, sensor);
    EXPECT_LT(deviation, ref.number("history_tolerance")) << sensor << " at t = " << at;
  }
  // It flies: by t = 10 the end point has travelled more than 3 beam lengths along x.
  EXPECT_GT(c.rec.rows.back().sensors[sensor_index(c.model, "b_x")], 6.0 + 30.0);
}

}  // namespace
}  // namespace catena
