// Sensors at a point along a beam (`beam: <name>, at: <distance>`, io/model/sensors.cpp): on a
// cantilever under a tip force, the bending moment is linear, P (L − s), so the interpolation
// between element middles (extrapolated over the half elements at the ends) must give it exactly
// anywhere, root and tip included; a displacement is interpolated linearly between the nodes:
// exact at a node, within h²/8 · max|w''| of the Timoshenko solution between them. Points off
// the beam, unknown beams and quaternions are refused at their line.
#include "support/case_runner.hpp"
#include "support/test_files.hpp"
#include "io/input_error.hpp"
#include "io/model_reader.hpp"
#include "fem/sensor.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace catena {
namespace {

constexpr double L = 2.0, P = 1.0, EI = 1e6, GA = 1e8;

/// The cantilever with `sensors` (YAML list items), 20 elements, one static increment at P.
std::string cantilever(const std::string& sensors) {
  return R"yaml(name: cantilever
parameters: {L: 2, P: 1, n: 20}
nodes:
  - {name: root, position: [0, 0, 0]}
  - {name: tip, position: [L, 0, 0]}
supports:
  - {node: root, dofs: all}
beams:
  - name: beam
    from: root
    to: tip
    elements: n
    orientation: [0, 1, 0]
    section: {EA: 1e9, GAy: 1e8, GAz: 1e8, GJ: 1e6, EIy: 1e6, EIz: 1e6}
loads:
  - {node: tip, force: [0, "P*t", 0]}
analysis: {type: static, dt: 1, t_end: 1}
sensors:
)yaml" + sensors;
}

std::vector<double> final_sensors(const std::string& text) {
  fem::Model model = io::read_model(testing::write_temp("catena_beam_point_sensors", "model.yaml", text));
  // summary.json's units of these sensors (fem::sensor_unit), from their quantities and fields.
  for (const fem::Sensor& s : model.sensors) {
    const std::string_view expected = s.name[0] == 'M' ? "N m" : s.name[0] == 'V' ? "N" : "m";
    EXPECT_EQ(fem::sensor_unit(s), expected) << s.name;
  }
  testing::RecordingObserver rec;
  static_cast<void>(testing::run_model(model, rec));
  return rec.rows.back().sensors;
}

/// The Timoshenko cantilever's deflection at s under a tip force P.
double deflection(double s) { return P * s * s * (3 * L - s) / (6 * EI) + P * s / GA; }

TEST(BeamPointSensors, SectionForcesAnywhereAlongTheBeamAndDisplacementsBetweenItsNodes) {
  const std::vector<double> v = final_sensors(cantilever(R"yaml(  - {name: M_root, beam: beam, at: 0, quantity: bending_moment_z}
  - {name: M_37, beam: beam, at: "0.37*L", quantity: bending_moment_z}
  - {name: M_tip, beam: beam, at: L, quantity: bending_moment_z}
  - {name: V_37, beam: beam, at: "0.37*L", quantity: shear_force_y}
  - {name: u_37, beam: beam, at: "0.37*L", quantity: displacement, component: y}
  - {name: u_35, beam: beam, at: "0.35*L", quantity: displacement, component: y}
  - {name: u_node7, node: beam_7, quantity: displacement, component: y}
  - {name: u_tip, beam: beam, at: L, quantity: displacement, component: y}
  - {name: M_element1, element: beam_1, quantity: bending_moment_z}
)yaml"));
  EXPECT_NEAR(std::abs(v[0]), P * L, 1e-9 * P * L);
  EXPECT_NEAR(std::abs(v[1]), P * (L - 0.37 * L), 1e-9 * P * L);
  EXPECT_NEAR(v[2], 0.0, 1e-9 * P * L);
  EXPECT_NEAR(std::abs(v[3]), P, 1e-9 * P);
  // The root value is extrapolated: the first element's own value is half an element inside.
  EXPECT_NEAR(std::abs(v[8]), P * (L - L / 40), 1e-9 * P * L);
  // At 0.35 L, node beam_7: the node's value itself.
  EXPECT_EQ(v[5], v[6]);
  EXPECT_NEAR(v[5], deflection(0.35 * L), 1e-6 * deflection(L));
  EXPECT_NEAR(v[7], deflection(L), 1e-6 * deflection(L));
  // Between nodes: within h²/8 · max|w''| = (L/20)²/8 · P L/EI of the exact curve, and closer to it
  // than either neighbouring node's value.
  const double h = L / 20;
  EXPECT_NEAR(v[4], deflection(0.37 * L), h * h / 8 * P * L / EI);
  EXPECT_LT(std::abs(v[4] - deflection(0.37 * L)), std::abs(v[5] - deflection(0.37 * L)) / 10);
}

/// The message of reading `text`, which must fail, with its line.
std::string refusal(const std::string& text) {
  try {
    static_cast<void>(io::read_model(testing::write_temp("catena_beam_point_refused", "model.yaml", text)));
  } catch (const io::InputError& e) {
    return std::to_string(e.line()) + ": " + e.message();
  }
  return "accepted";
}

TEST(BeamPointSensors, PointsOffTheBeamUnknownBeamsAndQuaternionsAreRefusedAtTheirLine) {
  // The sensors' list starts on line 19.
  std::string m = refusal(cantilever("  - {name: far, beam: beam, at: 2.5, quantity: displacement, component: y}\n"));
  EXPECT_NE(m.find("19: expected a distance along beam 'beam' of at most its length 2 m; found 2.5 m"),
            std::string::npos) << m;
  m = refusal(cantilever("  - {name: typo, beam: beem, at: 1, quantity: displacement, component: y}\n"));
  EXPECT_NE(m.find("19: unknown beam 'beem' (did you mean 'beam'?)"), std::string::npos) << m;
  m = refusal(cantilever("  - {name: q, beam: beam, at: 1, quantity: orientation, component: w}\n"));
  EXPECT_NE(m.find("19: expected a quantity that interpolates along a beam"), std::string::npos) << m;
  m = refusal(cantilever("  - {name: a, node: tip, at: 1, quantity: displacement, component: y}\n"));
  EXPECT_NE(m.find("19: expected `at` only with `beam`"), std::string::npos) << m;
  m = refusal(cantilever("  - {name: b, beam: beam, quantity: displacement, component: y}\n"));
  EXPECT_NE(m.find("19: missing required key 'at'"), std::string::npos) << m;
}

}  // namespace
}  // namespace catena
