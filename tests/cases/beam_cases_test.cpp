// Beam case regressions (docs/benchmarks.md): princeton-beam, roll-up, large-deflection-cantilever,
// flying-spaghetti-2d and tumbling-beam-3d, each model file run in-process and checked against the
// references and tolerances of its reference.yaml or reference.csv.
#include "support/case_reference.hpp"
#include "support/case_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace catena {
namespace {

using testing::CaseReference;
using testing::CaseRun;
using testing::run_case;
using testing::final_value;
using testing::sensor_index;

// ---------------------------------------------------------------------------------------------
// princeton-beam: ANSYS tip displacements (Obrezkov et al. 2022) at P = 8.896 N by load angle
// (cases/princeton-beam/reference.csv, columns tip_uy_8.896 and tip_uz_8.896), relative within
// `tolerance` where the reference is at least `abs_below`, absolute within `abs_tolerance` elsewhere
// (reference.yaml). The other two loads: tests/cases/princeton_heavy_load_test.cpp.

void expect_within_princeton_tolerance(const CaseReference& ref, double measured, double reference, const std::string& what) {
  if (std::abs(reference) >= ref.number("abs_below"))
    EXPECT_LT(std::abs(measured - reference), ref.number("tolerance") * std::abs(reference)) << what << ": " << measured << " vs " << reference;
  else
    EXPECT_LT(std::abs(measured - reference), ref.number("abs_tolerance")) << what << ": " << measured << " vs " << reference;
}

TEST(CasePrincetonBeam, TipDisplacementsMatchAnsysAtEveryAngle) {
  const CaseReference ref("princeton-beam");
  for (const double angle_degrees : ref.csv_column("angle")) {
    const std::string angle = std::to_string(static_cast<int>(angle_degrees));
    const CaseRun c = run_case("princeton-beam", {"load=8.896", "angle=" + angle});
    ASSERT_NEAR(c.rec.rows.back().t, 1.0, 1e-12) << "angle " << angle;
    for (const std::string sensor : {"tip_uy", "tip_uz"})
      expect_within_princeton_tolerance(ref, final_value(c, sensor), ref.csv_at("angle", angle_degrees, sensor + "_8.896"),
                                        sensor + " at " + angle + " deg");
  }
}

TEST(CasePrincetonBeam, LowAndHighLoadsConverge) {
  // No published figures here: every angle must converge and the deflection grow with the load.
  for (int angle = 0; angle <= 90; angle += 15) {
    const std::string a = "angle=" + std::to_string(angle);
    double previous = 0.0;
    for (const char* load : {"4.448", "8.896", "13.345"}) {
      const CaseRun c = run_case("princeton-beam", {std::string("load=") + load, a});
      ASSERT_NEAR(c.rec.rows.back().t, 1.0, 1e-12) << a << " load " << load;
      const double u = std::hypot(final_value(c, "tip_uy"), final_value(c, "tip_uz"));
      EXPECT_GT(u, previous) << a << " load " << load;
      previous = u;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// roll-up: tip moment 2 pi EI / L closes the cantilever into a circle (L = 1 m).

/// The final tip within reference.yaml's tolerance (of L) of its expected point `shape` (full_circle, semicircle).
void expect_roll_up_tip(const CaseRun& c, const std::string& shape) {
  const CaseReference ref("roll-up");
  ASSERT_NEAR(c.rec.rows.back().t, 1.0, 1e-12);
  const double distance = std::hypot(final_value(c, "tip_x") - ref.number(shape + "/tip_x"),
                                     final_value(c, "tip_y") - ref.number(shape + "/tip_y"));
  EXPECT_LT(distance, ref.number("tolerance") * ref.number("L")) << shape;
}

TEST(CaseRollUp, FullCircleBringsTheTipBackToTheRoot) { expect_roll_up_tip(run_case("roll-up", {"n=20"}), "full_circle"); }

TEST(CaseRollUp, HalfMomentGivesASemicircle) {
  expect_roll_up_tip(run_case("roll-up", {"n=20", "fraction=0.5"}), "semicircle");
}

// ---------------------------------------------------------------------------------------------
// large-deflection-cantilever: converged Timoshenko solution, and the linear check.

TEST(CaseLargeDeflectionCantilever, TipDisplacementWithinHalfAPercent) {
  const CaseReference ref("large-deflection-cantilever");
  const CaseRun c = run_case("large-deflection-cantilever");
  ASSERT_NEAR(c.rec.rows.back().t, 1.0, 1e-12);
  for (const std::string sensor : {"tip_ux", "tip_uy"}) {
    const double reference = ref.number("large/" + sensor);
    EXPECT_NEAR(final_value(c, sensor), reference, ref.number("large/tolerance") * std::abs(reference)) << sensor;
  }
}

TEST(CaseLargeDeflectionCantilever, SmallLoadMatchesTimoshenkoTheory) {
  const CaseReference ref("large-deflection-cantilever");
  const CaseRun c = run_case("large-deflection-cantilever", {"F=6.25e4"});
  ASSERT_NEAR(c.rec.rows.back().t, 1.0, 1e-12);
  const double L = 2, b = 0.1, h = 0.5, E = 2.07e11, nu = 0.3, P = ref.number("linear/F");
  const double G = E / (2 * (1 + nu)), k = 10 * (1 + nu) / (12 + 11 * nu);
  const double theory = P * L * L * L / (3 * E * b * h * h * h / 12) + P * L / (k * G * b * h);
  ASSERT_NEAR(theory, ref.number("linear/tip_uy"), 1e-8);  // the published figure
  EXPECT_NEAR(final_value(c, "tip_uy"), theory, ref.number("linear/tolerance") * theory);
}

// ---------------------------------------------------------------------------------------------
// Free beams: energy and momenta constant (midpoint scheme).

TEST(CaseFlyingSpaghetti2d, EnergyAndMomentaConstantAfterTheLoadsAreRemoved) {
  const CaseReference ref("flying-spaghetti-2d");
  const CaseRun c = run_case("flying-spaghetti-2d");
  ASSERT_NEAR(c.rec.rows.back().t, 15.0, 1e-12);
  testing::expect_free_flight_conserved(c, ref.number("t_free"), ref.number("energy_tolerance"));
}

TEST(CaseFlyingSpaghetti2d, MotionStaysInThePlane) {
  const CaseRun c = run_case("flying-spaghetti-2d", {"analysis.t_end=8"});
  const double tolerance = CaseReference("flying-spaghetti-2d").number("planarity_tolerance");
  const std::size_t iz = sensor_index(c.model, "tip_z");
  for (const auto& r : c.rec.rows) {
    EXPECT_LT(std::abs(r.sensors[iz]), tolerance) << "t = " << r.t;
    EXPECT_LT(std::abs(r.energy.state.momentum.z()), tolerance) << "t = " << r.t;
    EXPECT_LT(std::abs(r.energy.state.angular_momentum.x()), tolerance) << "t = " << r.t;
    EXPECT_LT(std::abs(r.energy.state.angular_momentum.y()), tolerance) << "t = " << r.t;
    for (const fem::NodeState& s : r.states) EXPECT_LT(std::abs(s.position.z()), tolerance) << "t = " << r.t;
  }
  // The push really moves it: the pushed end travels more than half a beam length by t = 8.
  EXPECT_GT(c.rec.rows.back().sensors[sensor_index(c.model, "tip_x")], 6.0 + 5.0);
}

TEST(CaseTumblingBeam3d, EnergyAndMomentaConstant) {
  // Shortened to t = 10 (200 steps); README.md gives the figures of the full run to t = 50.
  const CaseRun c = run_case("tumbling-beam-3d", {"analysis.t_end=10"});
  ASSERT_NEAR(c.rec.rows.back().t, 10.0, 1e-12);
  const CaseReference ref("tumbling-beam-3d");
  const double scale = c.rec.rows.front().energy.state.kinetic;  // initial kinetic energy
  ASSERT_NEAR(scale, ref.number("energy_scale_K0"), 1e-5 * scale);
  const double tolerance = ref.number("energy_tolerance") * scale;
  const auto d = c.rec.drifts_after(0.0);
  EXPECT_LT(d.balance, tolerance);
  for (int i = 0; i < 3; ++i) {
    EXPECT_LT(d.p[i], tolerance) << "linear momentum component " << i;
    EXPECT_LT(d.L[i], tolerance) << "angular momentum component " << i;
  }
  // Bending is excited: the strain energy reaches a sizeable share of the energy.
  double strain = 0;
  for (const auto& r : c.rec.rows) strain = std::max(strain, r.energy.state.strain);
  EXPECT_GT(strain, 1e-3 * scale);
}

}  // namespace
}  // namespace catena
