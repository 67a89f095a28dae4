// What `catena check` says about each beam definition's section axes (io/beam_axes.hpp): which
// global plane each bending stiffness bends the beam in, for beams along global axes, along a
// diagonal, turned by `orientation`, along an arc, and many alike from a repeat block.
#include "io/beam_axes.hpp"
#include "io/model_reader.hpp"
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace catena::io {
namespace {

/// The lines `check` prints about the beams of a model whose `beams` section is `beams`.
std::vector<std::string> beam_lines(const std::string& beams, const std::string& name) {
  const std::string text = R"yaml(name: axes
nodes:
  - {name: o, position: [0, 0, 0]}
  - {name: x1, position: [2, 0, 0]}
  - {name: z1, position: [0, 0, 2]}
  - {name: d1, position: [1, 1, 0]}
supports: [{node: o, dofs: all}]
beams:
)yaml" + beams + "analysis: {type: static, dt: 1, t_end: 1}\n";  // unused nodes need no mass
  return describe_beam_axes(read_model(testing::write_temp("catena_beam_axes", name + ".yaml", text)));
}

constexpr const char* section = "section: {EA: 1e7, GJ: 1e3, EIy: 1000, EIz: 2e5, rhoA: 1, rhoJ: 0.01}";

TEST(BeamAxes, ABeamAlongXWithTheDefaultOrientationBendsInTheGlobalPlanes) {
  const auto lines = beam_lines(std::string("  - {name: arm, from: o, to: x1, elements: 4, ") + section + "}\n", "x");
  ASSERT_EQ(lines.size(), 1U);  // one line per definition, not per element
  EXPECT_EQ(lines[0], "beam arm: EIy = 1000 N m^2 bends in the global x-z plane, EIz = 200000 N m^2 in the global "
                      "x-y plane; local x = global x, y = global y, z = global z");
}

TEST(BeamAxes, AnOrientationAlongZTurnsTheStiffAxis) {
  // The user's arm: local y along global z makes local z = x × y = -global y, so that EIy (the
  // weak one here) bends the arm in the horizontal plane.
  const auto lines = beam_lines(
      std::string("  - {name: arm, from: o, to: x1, orientation: [0, 0, 1], ") + section + "}\n", "turned");
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_EQ(lines[0], "beam arm: EIy = 1000 N m^2 bends in the global x-y plane, EIz = 200000 N m^2 in the global "
                      "x-z plane; local x = global x, y = global z, z = -global y");
}

TEST(BeamAxes, AVerticalBeamAndADiagonalOneAreDescribedEachInItsOwnTerms) {
  const auto lines = beam_lines(std::string("  - {name: mast, from: o, to: z1, ") + section + "}\n" +
                                    "  - {name: brace, from: o, to: d1, " + section + "}\n",
                                "vertical_diagonal");
  ASSERT_EQ(lines.size(), 2U);
  // Along z the default orientation is global y: local z = z × y = -global x.
  EXPECT_EQ(lines[0], "beam mast: EIy = 1000 N m^2 bends in the global x-z plane, EIz = 200000 N m^2 in the global "
                      "y-z plane; local x = global z, y = global y, z = -global x");
  // Along the diagonal of x and y, local z stays global z; local y is no global axis.
  EXPECT_EQ(lines[1], "beam brace: EIy = 1000 N m^2 bends in the plane normal to [-0.7071, 0.7071, 0] (local x-z), "
                      "EIz = 200000 N m^2 in the global x-y plane; local x = [0.7071, 0.7071, 0], "
                      "y = [-0.7071, 0.7071, 0], z = global z");
}

TEST(BeamAxes, AnArcBendsInItsPlaneAboutEIzAndOutOfItAboutEIy) {
  const auto lines = beam_lines(std::string("  - {name: ring, from: x1, arc: {centre: [0, 0, 0], angle: \"90 deg\"}, "
                                            "elements: 6, ") +
                                    section + "}\n",
                                "arc");
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_EQ(lines[0], "beam ring: EIy = 1000 N m^2 bends in its local x-z plane, which turns along the beam, "
                      "EIz = 200000 N m^2 in the global x-y plane; local z = global z; x and y turn along the beam");
}

TEST(BeamAxes, BeamsThatReadTheSameShareALine) {
  const auto lines = beam_lines(std::string("  - repeat: {index: k, from: 1, to: 6}\n    items:\n") +
                                    "      - {name: \"s{k}\", from: o, to: x1, " + section + "}\n" +
                                    "  - {name: mast, from: o, to: z1, " + section + "}\n",
                                "repeat");
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0].substr(0, lines[0].find(':')), "beams s1, s2, s3, s4, ... (6 beams)");
  EXPECT_EQ(lines[1].substr(0, lines[1].find(':')), "beam mast");
}

TEST(BeamAxes, CheckPrintsThemAfterTheElementCounts) {
  const testing::CliResult r =
      testing::run_cli("check " + std::string(CATENA_SOURCE_DIR) + "/cases/slider-crank-flexible/model.yaml");
  ASSERT_EQ(r.code, 0) << r.output;
  const std::size_t line = r.output.find(
      "\n  beams rod_1, rod_2: EIy = 16.5084 N m^2 bends in the global x-z plane, EIz = 16.5084 N m^2 in the global "
      "x-y plane; local x = global x, y = global y, z = global z\n");
  ASSERT_NE(line, std::string::npos) << r.output;
  EXPECT_LT(r.output.find("  beam        8\n"), line) << r.output;
}

}  // namespace
}  // namespace catena::io
