// `output.deflection_frame` (io/model/analysis.cpp, fem/deflection.hpp): the reader takes a frame
// node's name, refuses unknown names (with a close one) and point nodes at their line; a clamped
// cantilever's deflection from its clamped root is its displacement; on the spinning beam of
// cases/spin-up-simo the deflection from the hub is small where the displacement is not, and its
// component along the hub's y axis is the case's own tip_deflection sensor.
#include "support/case_runner.hpp"
#include "support/node_deflections.hpp"
#include "support/test_files.hpp"
#include "fem/deflection.hpp"
#include "io/input_error.hpp"
#include "io/model_reader.hpp"

#include <gtest/gtest.h>

#include <string>

namespace catena {
namespace {

/// A cantilever of 8 beams under a tip force, one static increment, with `output` given.
std::string cantilever(const std::string& output, const std::string& extra_nodes = "") {
  return R"yaml(name: cantilever
nodes:
  - {name: root, position: [0, 0, 0]}
  - {name: tip, position: [2, 0, 0]}
)yaml" + extra_nodes + R"yaml(supports:
  - {node: root, dofs: all}
beams:
  - name: beam
    from: root
    to: tip
    elements: 8
    orientation: [0, 1, 0]
    section: {EA: 1e6, GAy: 1e5, GAz: 1e5, GJ: 1e3, EIy: 1e3, EIz: 1e3}
loads:
  - {node: tip, force: [0, "300*t", "100*t"]}
analysis: {type: static, dt: 0.5, t_end: 1}
output:
)yaml" + output;
}

fem::Model read(const std::string& text) {
  return io::read_model(testing::write_temp("catena_deflection_frame", "model.yaml", text));
}

/// The message of reading `text`, which must fail, with its line.
std::string refusal(const std::string& text) {
  try {
    static_cast<void>(read(text));
  } catch (const io::InputError& e) {
    return std::to_string(e.line()) + ": " + e.message();
  }
  return "accepted";
}

TEST(DeflectionFrame, ReaderTakesAFrameNodeAndRefusesOthersAtTheirLine) {
  const fem::Model m = read(cantilever("  deflection_frame: root\n"));
  ASSERT_TRUE(m.analysis.deflection_frame.has_value());
  EXPECT_EQ(*m.analysis.deflection_frame, *m.find_node("root"));
  EXPECT_FALSE(read(cantilever("  vtk_every: 1\n")).analysis.deflection_frame.has_value());
  // `output:` is on line 17, its key on line 18 (19 with the extra node).
  std::string msg = refusal(cantilever("  deflection_frame: rooot\n"));
  EXPECT_NE(msg.find("18: unknown node 'rooot' (did you mean 'root'?)"), std::string::npos) << msg;
  msg = refusal(cantilever("  deflection_frame: spare\n", "  - {name: spare, position: [0, 1, 0]}\n"));
  EXPECT_NE(msg.find("19: expected a frame node"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'spare' is a point node"), std::string::npos) << msg;
}

TEST(DeflectionFrame, FromTheClampedRootItIsTheDisplacement) {
  fem::Model model = read(cantilever("  deflection_frame: root\n"));
  testing::RecordingObserver rec;
  static_cast<void>(testing::run_model(model, rec));
  const std::vector<fem::NodeState>& now = rec.rows.back().states;
  const std::vector<fem::Deflection> d =
      testing::node_deflections(model.nodes, model.initial_state, now, *model.analysis.deflection_frame);
  const double tip = (now[testing::node_index(model, "tip")].position - fem::Vec3(2, 0, 0)).norm();
  ASSERT_GT(tip, 0.1);  // a large deflection (about 0.7 rad at the tip)
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    const fem::Vec3 displacement = now[i].position - model.nodes[i].reference_position;
    EXPECT_LT((d[i].global - displacement).norm(), 1e-14 * tip) << model.nodes[i].name;
    EXPECT_LT((d[i].local - displacement).norm(), 1e-14 * tip) << model.nodes[i].name;
  }
}

TEST(DeflectionFrame, FromTheHubOfTheSpinningBeamItIsTheLagTheCaseSensorReads) {
  // 3 s of the spin-up: the hub has turned 0.22 rad and the tip moved about 2.2 m, of which the
  // lag behind the hub is a tenth; tip_deflection is the tip's y in the hub's frame, which
  // `deflection_local` must equal (the tip's reference y in that frame is 0).
  testing::CaseRun c = testing::run_case(
      "spin-up-simo", {"analysis.t_end=3", "analysis.output_every=30", "output.deflection_frame=hub"});
  ASSERT_TRUE(c.model.analysis.deflection_frame.has_value());
  const std::size_t tip = testing::node_index(c.model, "tip");
  const std::size_t sensor = testing::sensor_index(c.model, "tip_deflection");
  ASSERT_GE(c.rec.rows.size(), 10U);
  double largest_lag = 0.0, miss = 0.0;
  for (const testing::RecordingObserver::Row& row : c.rec.rows) {
    const std::vector<fem::Deflection> d =
        testing::node_deflections(c.model.nodes, c.model.initial_state, row.states, *c.model.analysis.deflection_frame);
    const fem::Deflection& t = d[tip];
    miss = std::max(miss, std::abs(t.local.y() - row.sensors[sensor]));
    largest_lag = std::max(largest_lag, std::abs(t.local.y()));
    EXPECT_NEAR(t.local.z(), 0.0, 1e-15);  // planar: nothing leaves the plane
    EXPECT_NEAR(t.global.norm(), t.local.norm(), 1e-15);
  }
  const testing::RecordingObserver::Row& last = c.rec.rows.back();
  const double displacement = (last.states[tip].position - c.model.nodes[tip].reference_position).norm();
  const double deflection =
      testing::node_deflections(c.model.nodes, c.model.initial_state, last.states, *c.model.analysis.deflection_frame)[tip]
          .global.norm();
  testing::record("tip_displacement_m", displacement);
  testing::record("tip_deflection_m", deflection);
  EXPECT_GT(displacement, 2.0);
  EXPECT_LT(deflection, 0.2 * displacement);
  testing::record("largest_lag_m", largest_lag);
  testing::record("sensor_miss_m", miss);
  EXPECT_GT(largest_lag, 1e-3);
  EXPECT_LT(miss, 1e-14);
}

}  // namespace
}  // namespace catena
