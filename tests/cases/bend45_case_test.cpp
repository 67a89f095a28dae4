// bend45 (Bathe & Bolourchi 1979): a 45° circular cantilever bend, radius 100, under a dead
// out-of-plane tip force of 600; the final tip displacement against the published figures of
// cases/bend45/reference.yaml, with the coarse 8-element mesh of the literature and a finer one
// (also against Catena's own 64-element figures), and a small load against Castigliano.
#include "support/case_reference.hpp"
#include "support/case_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace catena {
namespace {

using testing::CaseReference;
using testing::CaseRun;
using testing::final_value;
using testing::run_case;
using testing::sensor_index;

/// Each tip displacement component within `tolerance` × |published tip displacement| of the
/// published figures `source` (reference.yaml).
void expect_tip_near(const CaseRun& c, const CaseReference& ref, const std::string& source, const std::string& tolerance) {
  ASSERT_NEAR(c.rec.rows.back().t, 1.0, 1e-12);
  const double ux = ref.number(source + "/tip_ux"), uy = ref.number(source + "/tip_uy"), uz = ref.number(source + "/tip_uz");
  const double scale = std::sqrt(ux * ux + uy * uy + uz * uz);
  EXPECT_NEAR(final_value(c, "tip_ux"), ux, ref.number(tolerance) * scale) << source;
  EXPECT_NEAR(final_value(c, "tip_uy"), uy, ref.number(tolerance) * scale) << source;
  EXPECT_NEAR(final_value(c, "tip_uz"), uz, ref.number(tolerance) * scale) << source;
}

TEST(CaseBend45, EightElementsMatchBatheBolourchi) {
  const CaseReference ref("bend45");
  const CaseRun c = run_case("bend45", {"n=8"});
  expect_tip_near(c, ref, "bathe_bolourchi", "tolerance");
}

TEST(CaseBend45, SixteenElementsMatchTheOtherCodesAndOurConvergedMesh) {
  const CaseReference ref("bend45");
  const CaseRun c = run_case("bend45", {"n=16"});
  expect_tip_near(c, ref, "simo_vu_quoc", "tolerance");
  expect_tip_near(c, ref, "cardona_geradin", "tolerance");
  expect_tip_near(c, ref, "converged", "converged_tolerance");  // 64 elements, measured
}

TEST(CaseBend45, SmallLoadMatchesCastigliano) {
  // A 45° arc of radius R clamped at one end, tip force P normal to its plane: at the section at
  // angle ψ from the tip, bending moment P R sin ψ, torque P R (1 − cos ψ), shear P; Castigliano
  // integrates (M²/EI + T²/GJ + V²/kGA) R dψ / P over 0 ≤ ψ ≤ π/4.
  const CaseReference ref("bend45");
  const double R = 100, E = 1e7, G = E / 2, P = ref.number("linear/P");
  const double EI = E / 12, GJ = G / 6, kGA = 5.0 / 6.0 * G;
  const double pi = std::numbers::pi;
  const double closed = P * R * R * R / EI * (pi / 8 - 0.25) + P * R * R * R / GJ * (3 * pi / 8 - std::sqrt(2.0) + 0.25) +
                        P * R / kGA * (pi / 4);
  ASSERT_NEAR(closed, ref.number("linear/tip_uz"), 1e-9);  // the figure in reference.yaml
  const CaseRun c = run_case("bend45", {"n=16", "P=" + std::to_string(P)});
  ASSERT_NEAR(c.rec.rows.back().t, 1.0, 1e-12);
  EXPECT_NEAR(final_value(c, "tip_uz"), closed, ref.number("linear/tolerance") * closed);
}

}  // namespace
}  // namespace catena
