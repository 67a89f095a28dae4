// Beams along circular arcs (`beams: - {from, arc: {centre, angle, axis}, elements}`): the generated
// nodes lie on the circle, the chords are equal, the section axes follow the curve without twist,
// bad arcs are refused at their line, and a quarter-circle cantilever matches Castigliano's
// small-deflection tip displacements (out of plane and in plane).
#include "assembly/tableau.hpp"
#include "elements/beam.hpp"
#include "io/input_error.hpp"
#include "io/model_reader.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

namespace catena::io {
namespace {

namespace fs = std::filesystem;
using std::numbers::pi;
using testing::elements_of;

/// Writes `text` to a model file of its own and reads it.
fem::Model read_text(const std::string& file_name, const std::string& text, std::vector<std::string> overrides = {}) {
  const fs::path file = fs::temp_directory_path() / ("catena_arc_beams_" + file_name + ".yaml");
  std::ofstream(file) << text;
  return read_model(file, overrides);
}

/// The InputError reading `text` raises (a test failure if none).
std::string read_error(const std::string& file_name, const std::string& text) {
  try {
    static_cast<void>(read_text(file_name, text));
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error reading " << file_name;
  return "";
}

const fem::Vec3& position(const fem::Model& model, const std::string& name) {
  return model.nodes[static_cast<std::size_t>(model.find_node(name)->index)].reference_position;
}

// A 90° arc of radius 2 about the axis [1, 1, 0] through the centre (1, 2, 3), starting at node
// `root`, 8 elements, ending at the generated node `arc_end`.
const std::string tilted_arc = R"yaml(
name: tilted-arc
nodes:
  - {name: root, position: [3, 0, 3]}
beams:
  - name: arc
    from: root
    arc: {centre: [1, 2, 3], angle: 90 deg, axis: [1, 1, 0]}
    elements: 8
    section: {EA: 1e6, GJ: 1e3, EIy: 1e3, EIz: 2e3}
supports: [{node: root, dofs: all}]
analysis: {type: static, dt: 1, t_end: 1}
)yaml";

/// `tilted_arc` turned the other way (angle −90°) when `sign` is −1.
std::string tilted(double sign) {
  std::string text = tilted_arc;
  if (sign < 0) text.replace(text.find("angle: 90 deg"), 13, "angle: -90 deg");
  return text;
}

class ArcBeamsBothWays : public ::testing::TestWithParam<double> {};
INSTANTIATE_TEST_SUITE_P(ArcBeams, ArcBeamsBothWays, ::testing::Values(1.0, -1.0));

TEST_P(ArcBeamsBothWays, NodesLieOnTheCircleWithEqualChords) {
  const double sign = GetParam();
  const fem::Model model = read_text("tilted", tilted(sign));
  const fem::Vec3 centre(1, 2, 3), axis = fem::Vec3(1, 1, 0).normalized();
  const double R = std::sqrt(8.0);
  std::vector<fem::Vec3> points{position(model, "root")};
  for (int k = 1; k < 8; ++k) points.push_back(position(model, "arc_" + std::to_string(k)));
  points.push_back(position(model, "arc_end"));
  for (std::size_t k = 0; k < points.size(); ++k) {
    EXPECT_NEAR((points[k] - centre).norm(), R, 1e-13 * R) << k;
    EXPECT_NEAR((points[k] - centre).dot(axis), 0.0, 1e-13 * R) << k;
    // The angle turned from the root, right-hand about the axis.
    const fem::Vec3 r0 = points[0] - centre, r = points[k] - centre;
    EXPECT_NEAR(std::atan2(r0.cross(r).dot(axis), r0.dot(r)), sign * static_cast<double>(k) * (pi / 2) / 8, 1e-13) << k;
  }
  const auto beams = elements_of<elements::Beam>(model);
  ASSERT_EQ(beams.size(), 8u);
  const double chord = 2 * R * std::sin(pi / 32);
  for (const auto* b : beams) EXPECT_NEAR(b->length(), chord, 1e-13 * R) << b->name();
  EXPECT_EQ(beams.front()->name(), "arc_1");
  EXPECT_EQ(beams.back()->name(), "arc_8");
  // The generated nodes' triads follow the curve: the root's (identity) turned by their angle.
  for (int k = 1; k < 8; ++k) {
    const fem::Quaternion q = model.initial_state[static_cast<std::size_t>(model.find_node("arc_" + std::to_string(k))->index)].orientation;
    EXPECT_LT(q.angularDistance(fem::Quaternion(Eigen::AngleAxisd(sign * k * (pi / 2) / 8, axis))), 1e-13) << k;
  }
}

/// The largest |component| of an element's deformations `eps` among `indices`.
double largest(const Eigen::Matrix<double, 6, 1>& eps, const std::vector<int>& indices) {
  double m = 0.0;
  for (const int i : indices) m = std::max(m, std::abs(eps[i]));
  return m;
}

TEST_P(ArcBeamsBothWays, SectionAxesFollowTheCurveWithoutTwist) {
  // Deformations ε = (ε_ax, θ_t, θ_ay, θ_by, θ_az, θ_bz), rotations of the ends about the local
  // axes. Turning one end of an element by a small δ about an expected local axis must show up in
  // that axis' bending components only: local z is the arc's axis for every element and local y
  // is axis × chord, so consecutive elements' y axes differ by the element angle (pi/2)/8, turned
  // about z, with no twist about the chord.
  const fem::Model model = read_text("axes", tilted(GetParam()));
  const fem::Vec3 axis = fem::Vec3(1, 1, 0).normalized();
  const double delta = 1e-6;
  const auto beams = elements_of<elements::Beam>(model);
  std::vector<fem::Vec3> y_axes;
  for (const auto* b : beams) {
    const fem::NodeId p = b->cell_nodes()[0], q = b->cell_nodes()[1];
    const fem::Vec3 x = (model.nodes[static_cast<std::size_t>(q.index)].reference_position -
                         model.nodes[static_cast<std::size_t>(p.index)].reference_position).normalized();
    const fem::Vec3 y = axis.cross(x);
    y_axes.push_back(y);
    ASSERT_LT(b->strains(model.initial_state).norm(), 1e-12) << b->name() << ": stress-free at t = 0";
    struct Probe {
      fem::Vec3 about;
      std::vector<int> bending, other;
    };
    for (const auto& [about, bending, other] :
         std::vector<Probe>{{axis, {4, 5}, {1, 2, 3}}, {y, {2, 3}, {1, 4, 5}}, {x, {1}, {2, 3, 4, 5}}}) {
      std::vector<fem::NodeState> states = model.initial_state;
      auto& qq = states[static_cast<std::size_t>(q.index)].orientation;
      qq = fem::Quaternion(Eigen::AngleAxisd(delta, about)) * qq;
      const auto eps = b->strains(states);
      EXPECT_GT(largest(eps, bending), 0.4 * delta) << b->name();
      EXPECT_LT(largest(eps, other), 1e-3 * delta) << b->name();
    }
  }
  for (std::size_t k = 1; k < y_axes.size(); ++k)
    EXPECT_NEAR(std::acos(std::clamp(y_axes[k - 1].dot(y_axes[k]), -1.0, 1.0)), (pi / 2) / 8, 1e-12) << k;
}

TEST(ArcBeams, ExistingEndNodeMustLieOnTheArcsEnd) {
  const std::string base = R"yaml(
name: arc-to
nodes:
  - {name: root, position: [0, 0, 0]}
  - {name: tip, position: [TIPX, TIPY, 0]}
beams:
  - name: bend
    from: root
    to: tip
    arc: {centre: [0, 100, 0], angle: 45 deg}
    elements: 4
    section: {EA: 1e6, GJ: 1e3, EIy: 1e3, EIz: 1e3}
analysis: {type: static, dt: 1, t_end: 1}
)yaml";
  auto with_tip = [&](double x, double y) {
    std::string text = base;
    text.replace(text.find("TIPX"), 4, std::to_string(x));
    text.replace(text.find("TIPY"), 4, std::to_string(y));
    return text;
  };
  const double s = 100 * std::sin(pi / 4), c = 100 * (1 - std::cos(pi / 4));
  // std::to_string keeps 6 decimals: within 1e-9 of the radius only by luck, so use a parameter.
  const std::string exact = R"yaml(
name: arc-to
parameters: {R: 100}
nodes:
  - {name: root, position: [0, 0, 0]}
  - {name: tip, position: ["R*sin(pi/4)", "R*(1-cos(pi/4))", 0]}
beams:
  - name: bend
    from: root
    to: tip
    arc: {centre: [0, R, 0], angle: 45 deg}
    elements: 4
    section: {EA: 1e6, GJ: 1e3, EIy: 1e3, EIz: 1e3}
analysis: {type: static, dt: 1, t_end: 1}
)yaml";
  const fem::Model model = read_text("to_ok", exact);
  EXPECT_EQ(elements_of<elements::Beam>(model).size(), 4u);
  EXPECT_FALSE(model.find_node("bend_end").has_value());
  const std::string message = read_error("to_off", with_tip(s, c + 0.01));
  EXPECT_NE(message.find("is not the arc's end"), std::string::npos) << message;
  EXPECT_NE(message.find(":9:"), std::string::npos) << message;  // the `to` line
}

TEST(ArcBeams, BadArcsAreRefusedAtTheirLine) {
  const std::string head = R"yaml(
name: bad-arc
nodes:
  - {name: root, position: [0, 0, 0]}
beams:
  - name: bend
    from: root
)yaml";
  const std::string section = "    section: {EA: 1e6, GJ: 1e3, EIy: 1e3, EIz: 1e3}\n";
  struct Bad {
    std::string arc, elements, expected, line;
  };
  for (const Bad& bad : std::vector<Bad>{
           {"{centre: [0, 0, 0], angle: 45 deg}", "4", "nonzero radius", ":8:"},
           {"{centre: [0, 1, 0], angle: 0}", "4", "0 < |angle| < 360 deg", ":8:"},
           {"{centre: [0, 1, 0], angle: 360 deg}", "4", "0 < |angle| < 360 deg", ":8:"},
           {"{centre: [0, 1, 0], angle: -400 deg}", "4", "0 < |angle| < 360 deg", ":8:"},
           {"{centre: [0, 1, 0], angle: 45 deg, axis: [0, 1, 1]}", "4", "perpendicular to the radius", ":8:"},
           {"{centre: [0, 1, 0], angle: 45 deg}", "", "elements", ":6:"},
       }) {
    std::string text = head + "    arc: " + bad.arc + "\n";
    if (!bad.elements.empty()) text += "    elements: " + bad.elements + "\n";
    text += section;
    const std::string message = read_error("bad", text);
    EXPECT_NE(message.find(bad.expected), std::string::npos) << bad.arc << ": " << message;
    EXPECT_NE(message.find(bad.line), std::string::npos) << bad.arc << ": " << message;
  }
}

/// The final value of sensor `name` of a static run of `model`.
double run_and_read(fem::Model model, const std::string& name) {
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::TimeIntegrator integrator(model, tableau);
  testing::RecordingObserver rec;
  static_cast<void>(integrator.run(rec));
  for (std::size_t i = 0; i < model.sensors.size(); ++i)
    if (model.sensors[i].name == name) return rec.rows.back().sensors[i];
  throw std::runtime_error("no sensor " + name);
}

/// Simpson's rule for f on [0, π/2] with 2000 intervals.
template <class F>
double quarter_integral(F f) {
  const int m = 2000;
  const double h = (pi / 2) / m;
  double sum = f(0.0) + f(pi / 2);
  for (int i = 1; i < m; ++i) sum += (i % 2 == 1 ? 4.0 : 2.0) * f(i * h);
  return sum * h / 3;
}

// Quarter circle of radius R = 1 in the x–y plane, clamped at (1, 0, 0), tip at (0, 1, 0) (the
// arc turns +90° about z through the origin), Euler–Bernoulli (no GA), 64 elements, P R²/EI = 1e-7.
// Measured (2026-11-27): out of plane 1.65660e-7 (n = 8, −1.2 %), 1.67104e-7 (16), 1.67558e-7 (64,
// −1.8e-4) against 1.67588e-7; in plane 3.57098e-8 (8), 3.56476e-8 (16), 3.56286e-8 (64, +3.6e-5)
// against 3.56273e-8: second-order convergence of the inscribed polygon of straight elements.
const std::string quarter_circle = R"yaml(
name: quarter-circle
parameters: {R: 1, P: 1e-4, EI: 1000, GJ: 400, EA: 1e7, FX: 0, FZ: 0, n: 64}
nodes:
  - {name: root, position: [R, 0, 0]}
supports: [{node: root, dofs: all}]
beams:
  - name: ring
    from: root
    arc: {centre: [0, 0, 0], angle: 90 deg, axis: [0, 0, 1]}
    elements: n
    section: {EA: EA, GJ: GJ, EIy: EI, EIz: EI}
loads:
  - {node: ring_end, force: ["FX*t", 0, "FZ*t"]}
analysis: {type: static, dt: 1, t_end: 1}
sensors:
  - {name: tip_ux, node: ring_end, quantity: displacement, component: x}
  - {name: tip_uz, node: ring_end, quantity: displacement, component: z}
)yaml";

TEST(ArcBeams, QuarterCircleOutOfPlaneTipLoadMatchesCastigliano) {
  const double R = 1, P = 1e-4, EI = 1000, GJ = 400;
  // At the section at angle ψ from the tip: bending moment P R sin ψ, torque P R (1 − cos ψ);
  // δ = ∫ (M²/EI + T²/GJ) R dψ / P. Closed form: P R³/EI (π/4) + P R³/GJ (3π/4 − 2).
  const double integrated = quarter_integral([&](double psi) {
    const double M = P * R * std::sin(psi), T = P * R * (1 - std::cos(psi));
    return (M * M / EI + T * T / GJ) * R / P;
  });
  const double closed = P * R * R * R / EI * (pi / 4) + P * R * R * R / GJ * (3 * pi / 4 - 2);
  ASSERT_NEAR(integrated, closed, 1e-10 * closed);
  const double uz = run_and_read(read_text("quarter_z", quarter_circle, {"parameters.FZ=1e-4"}), "tip_uz");
  EXPECT_NEAR(uz, closed, 1e-3 * closed);
}

TEST(ArcBeams, QuarterCircleInPlaneTipLoadMatchesCastigliano) {
  const double R = 1, P = 1e-4, EI = 1000, EA = 1e7;
  // Tip force −P along x (radial at the tip, towards the axis): at the section at angle ψ from
  // the root (x = R cos ψ, y = R sin ψ), bending moment P R (1 − sin ψ) and axial force P sin ψ;
  // δ = ∫ (M²/EI + N²/EA) R dψ / P = P R³/EI (3π/4 − 2) + P R/EA (π/4).
  const double integrated = quarter_integral([&](double psi) {
    const double M = P * R * (1 - std::sin(psi)), N = P * std::sin(psi);
    return (M * M / EI + N * N / EA) * R / P;
  });
  const double closed = P * R * R * R / EI * (3 * pi / 4 - 2) + P * R / EA * (pi / 4);
  ASSERT_NEAR(integrated, closed, 1e-10 * closed);
  const double ux = run_and_read(read_text("quarter_x", quarter_circle, {"parameters.FX=-1e-4"}), "tip_ux");
  EXPECT_NEAR(-ux, closed, 1e-3 * closed);
}

}  // namespace
}  // namespace catena::io
