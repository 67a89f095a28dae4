// The model language's generators and names: `repeat` blocks, `chains`, named `sets` and sensor
// frames. Each generated model is compared with its hand-written equivalent (same nodes, elements,
// unknowns and sensor histories), and each feature with values worked out by hand.
#include "assembly/tableau.hpp"
#include "support/test_files.hpp"
#include "elements/nodal_load.hpp"
#include "elements/point_mass.hpp"
#include "elements/rigid_body.hpp"
#include "elements/truss.hpp"
#include "fem/rotation.hpp"
#include "io/model_reader.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

namespace catena::io {
namespace {

namespace fs = std::filesystem;

const fs::path source_dir = CATENA_SOURCE_DIR;

fs::path write_temp(const std::string& file_name, const std::string& text) {
  return testing::write_temp("catena_generators", file_name, text);
}

using testing::elements_of;

const fem::Vec3& position_of(const fem::Model& model, std::string_view name) {
  const auto id = model.find_node(name);
  if (!id) throw std::runtime_error("no node " + std::string(name));
  return model.nodes[static_cast<std::size_t>(id->index)].reference_position;
}

double sensor_at_start(const fem::Model& model, std::string_view name) {
  for (const fem::Sensor& s : model.sensors)
    if (s.name == name) return fem::evaluate_sensor(s, model.nodes, model.initial_state, model.initial_state);
  throw std::runtime_error("no sensor " + std::string(name));
}

struct RunResult {
  fem::Model model;
  testing::RecordingObserver rec;
  PetscInt unknowns = 0;
};

RunResult run(const fs::path& file, const std::vector<std::string>& overrides) {
  RunResult r{read_model(file, overrides), {}, 0};
  assembly::Tableau tableau(r.model, PETSC_COMM_WORLD);
  r.unknowns = tableau.n_global();
  solvers::TimeIntegrator integrator(r.model, tableau);
  static_cast<void>(integrator.run(r.rec));
  return r;
}

/// The generated model has the hand-written one's nodes (names, reference positions) and
/// elements (names, kinds), in the same order. False (after recording failures) when the counts differ.
bool same_nodes_and_elements(const fem::Model& g, const fem::Model& h) {
  EXPECT_EQ(g.nodes.size(), h.nodes.size());
  EXPECT_EQ(g.elements.size(), h.elements.size());
  if (g.nodes.size() != h.nodes.size() || g.elements.size() != h.elements.size()) return false;
  for (std::size_t i = 0; i < h.nodes.size(); ++i) {
    EXPECT_EQ(g.nodes[i].name, h.nodes[i].name);
    EXPECT_EQ(g.nodes[i].reference_position, h.nodes[i].reference_position) << h.nodes[i].name;
  }
  for (std::size_t e = 0; e < h.elements.size(); ++e) {
    EXPECT_EQ(g.elements[e]->name(), h.elements[e]->name());
    EXPECT_EQ(g.elements[e]->kind(), h.elements[e]->kind());
  }
  return true;
}

// ---- chains ----

/// Largest difference per sensor column between two runs with the same columns and frames.
/// Largest differences of each sensor over the rows after `first_row`.
std::vector<double> sensor_differences(const RunResult& a, const RunResult& b, std::size_t first_row = 0) {
  std::vector<double> d(a.model.sensors.size(), 0.0);
  for (std::size_t r = first_row; r < a.rec.rows.size(); ++r)
    for (std::size_t s = 0; s < d.size(); ++s)
      d[s] = std::max(d[s], std::abs(a.rec.rows[r].sensors[s] - b.rec.rows[r].sensors[s]));
  return d;
}

/// cases/chain15-falling written with `chains` and `repeat` is the same model: same nodes (to
/// round-off: the centres are computed from the points), unknowns, sensor columns and histories.
/// Started from the given polygon, positions agree to 1e-12 over ten steps and the joint reaction
/// to the Newton tolerance (1e-10) of a bar's weight (the reaction itself is small as the chain
/// falls). Started from the static equilibrium (the case as it is), positions agree to 1e-12 and
/// the joint reaction to the Newton tolerance of the static start (multipliers converge relative
/// to their size, 1e-10).
TEST(Generators, Chain15FromChainGeneratorMatchesHandWritten) {
  const fs::path hand_file = source_dir / "cases" / "chain15-falling" / "model.yaml";
  const fs::path generated_file = source_dir / "tests" / "io" / "generators" / "chain15_generated.yaml";
  const std::vector<std::string> from_polygon{"analysis.t_end=0.01", "analysis.initial_equilibrium=false"};
  const RunResult hand = run(hand_file, from_polygon);
  const RunResult generated = run(generated_file, from_polygon);
  EXPECT_EQ(generated.model.nodes.size(), hand.model.nodes.size());
  EXPECT_EQ(generated.model.elements.size(), hand.model.elements.size());
  EXPECT_EQ(generated.unknowns, hand.unknowns);
  ASSERT_EQ(generated.model.sensors.size(), hand.model.sensors.size());
  for (std::size_t s = 0; s < hand.model.sensors.size(); ++s)
    EXPECT_EQ(generated.model.sensors[s].name, hand.model.sensors[s].name);
  // The bodies: the same centres, masses and inertia tensors (turned into global axes).
  const auto hand_bodies = elements_of<elements::RigidBody>(hand.model);
  const auto gen_bodies = elements_of<elements::RigidBody>(generated.model);
  ASSERT_EQ(gen_bodies.size(), 15u);
  for (std::size_t k = 0; k < 15; ++k) {
    const fem::Vec3& xh = hand.model.nodes[static_cast<std::size_t>(hand_bodies[k]->node().index)].reference_position;
    const fem::Vec3& xg = generated.model.nodes[static_cast<std::size_t>(gen_bodies[k]->node().index)].reference_position;
    EXPECT_LT((xh - xg).norm(), 4e-15) << "bar " << k + 1;
    EXPECT_EQ(gen_bodies[k]->properties().mass, hand_bodies[k]->properties().mass);
    EXPECT_LT((gen_bodies[k]->properties().inertia - hand_bodies[k]->properties().inertia).norm(), 1e-16) << k + 1;
  }
  ASSERT_EQ(generated.rec.rows.size(), 11u);
  ASSERT_EQ(hand.rec.rows.size(), 11u);
  const std::vector<double> d0 = sensor_differences(hand, generated);
  for (std::size_t s = 0; s < 3; ++s) EXPECT_LT(d0[s], 1e-12) << hand.model.sensors[s].name;
  ASSERT_EQ(hand.model.sensors[3].name, "joint8_force");
  // The reaction is a multiplier: Newton converges it relative to its size, and the two models'
  // round-off differs (their sums run in another order), so they may differ by the tolerance.
  const double bar_weight = 1.0 * 9.81;  // N: the scale of the joints' forces in this model
  EXPECT_LT(d0[3], 1e-10 * bar_weight) << "joint8_force";

  const std::vector<std::string> from_equilibrium{"analysis.t_end=0.01"};
  const RunResult hand_eq = run(hand_file, from_equilibrium);
  const RunResult generated_eq = run(generated_file, from_equilibrium);
  ASSERT_EQ(generated_eq.rec.rows.size(), hand_eq.rec.rows.size());
  const std::vector<double> d = sensor_differences(hand_eq, generated_eq);
  for (std::size_t s = 0; s < 3; ++s) EXPECT_LT(d[s], 1e-12) << hand_eq.model.sensors[s].name;
  EXPECT_EQ(hand_eq.model.sensors[3].name, "joint8_force");
  // The first row's reaction is extrapolated from two short steps (TimeIntegrator::
  // start_reactions), which amplifies the round-off of the node rows: 1e-8 of the joints' force
  // scale; the steps' averages after it to 1e-9 of it, ten times the Newton tolerance. The scale is
  // the bar's weight, as above, not this component's value (0.25 N, a fortieth of it): on another
  // machine's floating point the two models differed by 2e-9 N after the first row, which a bound
  // relative to the small component called a failure.
  EXPECT_LT(std::abs(hand_eq.rec.rows.front().sensors[3] - generated_eq.rec.rows.front().sensors[3]),
            1e-8 * bar_weight);
  EXPECT_LT(sensor_differences(hand_eq, generated_eq, 1)[3], 1e-9 * bar_weight) << "joint8_force";
}

TEST(Generators, ChainAlongALineNamesItsNodesBodiesAndJoints) {
  const fs::path file = write_temp("chain_line.yaml", R"yaml(name: chain-line
parameters: {n: 4, L: 0.5}
chains:
  - name: link
    bodies: n
    from: [1, 0, 0]
    direction: [0, -2, 0]
    length: L
    mass: 2
    inertia: [0.001, 0.05, 0.05]
    joint: {kind: revolute, axis: [0, 0, 1]}
    ground: {kind: revolute, axis: [0, 0, 1]}
gravity: [0, -9.81, 0]
analysis: {dt: 0.01, t_end: 0.1}
sensors:
  - {name: end_y, node: link_4, quantity: position, component: y}
  - {name: last_pin, element: link_joint_4, quantity: relative_rz}
  - {name: end_along, node: link_4, quantity: position, component: x, frame: {body: link_1}}
)yaml");
  const fem::Model model = read_model(file);
  ASSERT_EQ(model.nodes.size(), 4u);
  for (int k = 1; k <= 4; ++k) {
    const fem::Vec3 centre(1, -(k - 0.5) * 0.5, 0);
    EXPECT_LT((position_of(model, "link_" + std::to_string(k)) - centre).norm(), 1e-15) << k;
    // The node keeps the global axes; the inertia is turned: the axis inertia 0.001 along global y.
    const std::size_t index = static_cast<std::size_t>(model.find_node("link_" + std::to_string(k))->index);
    EXPECT_TRUE(model.initial_state[index].orientation.isApprox(fem::Quaternion::Identity()));
    const fem::Mat3& J = elements_of<elements::RigidBody>(model)[static_cast<std::size_t>(k - 1)]->properties().inertia;
    EXPECT_NEAR(J(1, 1), 0.001, 1e-15);
    EXPECT_NEAR(J(0, 0), 0.05, 1e-15);
    EXPECT_NEAR(J(2, 2), 0.05, 1e-15);
    EXPECT_NEAR(J(0, 1), 0.0, 1e-15);
  }
  std::vector<std::string> names;
  for (const auto& e : model.elements) names.emplace_back(e->name());
  EXPECT_EQ(names, (std::vector<std::string>{"link_1", "link_2", "link_3", "link_4", "link_joint_1", "link_joint_2",
                                             "link_joint_3", "link_joint_4"}));
  const auto bodies = elements_of<elements::RigidBody>(model);
  EXPECT_DOUBLE_EQ(bodies[2]->properties().mass, 2.0);
  EXPECT_DOUBLE_EQ(sensor_at_start(model, "end_y"), -1.75);
  EXPECT_DOUBLE_EQ(sensor_at_start(model, "last_pin"), 0.0);
  // In the first body's frame (x along the chain, origin at its centre) link_4 is 1.5 m ahead.
  EXPECT_NEAR(sensor_at_start(model, "end_along"), 1.5, 1e-15);
}

// ---- repeat ----

/// A grid of nodes and bars written with nested repeat blocks reads as the hand-written grid:
/// same names in the same order, same positions, masses and default element names.
TEST(Generators, NestedRepeatMatchesHandWrittenGrid) {
  const fs::path generated = write_temp("grid_repeat.yaml", R"yaml(name: grid
parameters: {nx: 3, ny: 2, h: 0.5}
nodes:
  - repeat: {index: j, from: 0, to: ny - 1}
    items:
      - repeat: {index: i, from: 0, to: nx - 1}
        items:
          - {name: "n{i}_{j}", position: [i*h, j*h, 0]}
supports:
  - repeat: {index: i, from: 0, to: nx - 1}
    items: [{node: "n{i}_0"}]
masses:
  - repeat: {index: i, from: nx - 1, to: 0, step: -1}
    items: [{node: "n{i}_1", mass: 1 + i}]
trusses:
  - repeat: {index: i, from: 0, to: nx - 1}
    items:
      - {nodes: ["n{i}_0", "n{i}_1"], EA: 1e6}
      - {name: "diag{i}", nodes: ["n{i}_0", "n{i + 1 < nx ? i + 1 : 0}_1"], EA: 2e6}
analysis: {dt: 0.01, t_end: 0.1}
)yaml");
  const fs::path hand = write_temp("grid_hand.yaml", R"yaml(name: grid
nodes:
  - {name: n0_0, position: [0, 0, 0]}
  - {name: n1_0, position: [0.5, 0, 0]}
  - {name: n2_0, position: [1, 0, 0]}
  - {name: n0_1, position: [0, 0.5, 0]}
  - {name: n1_1, position: [0.5, 0.5, 0]}
  - {name: n2_1, position: [1, 0.5, 0]}
supports: [{node: n0_0}, {node: n1_0}, {node: n2_0}]
masses: [{node: n2_1, mass: 3}, {node: n1_1, mass: 2}, {node: n0_1, mass: 1}]
trusses:
  - {nodes: [n0_0, n0_1], EA: 1e6}
  - {name: diag0, nodes: [n0_0, n1_1], EA: 2e6}
  - {nodes: [n1_0, n1_1], EA: 1e6}
  - {name: diag1, nodes: [n1_0, n2_1], EA: 2e6}
  - {nodes: [n2_0, n2_1], EA: 1e6}
  - {name: diag2, nodes: [n2_0, n0_1], EA: 2e6}
analysis: {dt: 0.01, t_end: 0.1}
)yaml");
  const fem::Model g = read_model(generated);
  const fem::Model h = read_model(hand);
  if (!same_nodes_and_elements(g, h)) return;
  const auto gm = elements_of<elements::PointMass>(g), hm = elements_of<elements::PointMass>(h);
  for (std::size_t k = 0; k < hm.size(); ++k) {
    EXPECT_EQ(gm[k]->node(), hm[k]->node());
    EXPECT_EQ(gm[k]->mass(), hm[k]->mass());
  }
  const auto gt = elements_of<elements::Truss>(g), ht = elements_of<elements::Truss>(h);
  for (std::size_t k = 0; k < ht.size(); ++k) EXPECT_EQ(gt[k]->rest_length(), ht[k]->rest_length());
  EXPECT_EQ(gt[1]->name(), "diag0");
  EXPECT_EQ(gt[4]->name(), "truss_4");  // default names count the generated items
  const assembly::Tableau tg(g, PETSC_COMM_WORLD), th(h, PETSC_COMM_WORLD);
  EXPECT_EQ(tg.n_global(), th.n_global());
  EXPECT_EQ(tg.n_global(), 9);  // three free nodes
}

TEST(Generators, RepeatIndexIsAParameterOnlyInsideItsBlock) {
  const fs::path file = write_temp("repeat_scope.yaml", R"yaml(name: scope
parameters: {L: 2}
nodes:
  - {name: base, position: [0, 0, 0]}
  - repeat: {index: k, from: 1, to: 3}
    items:
      - {name: "p{k}", position: [k*L, "k^2", 0], velocity: [0, 0, "-k"]}
masses: [{node: p1, mass: 1}, {node: p2, mass: 1}, {node: p3, mass: 1}]
supports: [{node: base}]
loads:
  - repeat: {index: k, from: 1, to: 3}
    items: [{name: "f{k}", node: "p{k}", force: [0, "k*sin(t)", 0]}]
analysis: {dt: 0.01, t_end: 0.1}
sensors:
  - {name: k, node: p3, quantity: position, component: x}
)yaml");
  const fem::Model model = read_model(file);
  EXPECT_EQ(position_of(model, "p3"), fem::Vec3(6, 9, 0));
  EXPECT_EQ(model.initial_state[2].velocity, fem::Vec3(0, 0, -2));
  const auto loads = elements_of<elements::NodalLoad>(model);
  ASSERT_EQ(loads.size(), 3u);
  EXPECT_EQ(loads[2]->name(), "f3");
  EXPECT_DOUBLE_EQ(loads[2]->value(0.5).y(), 3 * std::sin(0.5));  // k was bound when the load was read
  EXPECT_DOUBLE_EQ(sensor_at_start(model, "k"), 6.0);
  // Outside its block k is no parameter: a later use is an error naming it.
  const fs::path outside = write_temp("repeat_outside.yaml", R"yaml(name: outside
nodes:
  - repeat: {index: k, from: 1, to: 2}
    items: [{name: "p{k}", position: [k, 0, 0]}]
  - {name: q, position: [k, 0, 0]}
analysis: {type: static, dt: 0.1, t_end: 1}
)yaml");
  try {
    static_cast<void>(read_model(outside));
    ADD_FAILURE() << "k used outside its block was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 5);
    EXPECT_EQ(e.key(), "nodes[1].position[0]");
    EXPECT_NE(e.message().find("unknown parameter 'k'"), std::string::npos) << e.what();
  }
}

/// `repeat` in the sections not covered above: beams, rigid bodies, beam loads, chains and the
/// member list of a set, against the same model written out.
TEST(Generators, RepeatInBeamsBodiesBeamLoadsAndChainsMatchesHandWritten) {
  const std::string common = R"yaml(
nodes:
  - {name: a0, position: [0, 0, 0]}
  - {name: a1, position: [1, 0, 0]}
  - {name: a2, position: [2, 0, 0]}
supports: [{node: a0, dofs: all}]
analysis: {type: static, dt: 0.1, t_end: 1}
)yaml";
  const fs::path generated = write_temp("repeat_sections.yaml", "name: sections" + common + R"yaml(
beams:
  - repeat: {index: k, from: 1, to: 2}
    items:
      - {name: "span{k}", from: "a{k-1}", to: "a{k}", elements: k,
         section: {EA: "k*1e6", GJ: 10, EIy: 10, EIz: 10}}
rigid_bodies:
  - repeat: {index: k, from: 1, to: 2}
    items: [{name: "lump{k}", node: "a{k}", mass: k, inertia: ["0.1*k", "0.1*k", "0.1*k"]}]
beam_loads:
  - repeat: {index: k, from: 1, to: 2}
    items: [{name: "q{k}", beam: "span{k}", force: [0, "-k", 0]}]
chains:
  - repeat: {index: c, from: 1, to: 2}
    items:
      - {name: "arm{c}", bodies: c, from: [0, "c", 0], direction: [1, 0, 0], length: 1, mass: 1,
         inertia: [0.01, 0.1, 0.1], joint: {kind: spherical}, ground: {kind: spherical}}
sets:
  - name: tips
    nodes:
      - repeat: {index: c, from: 1, to: 2}
        items: ["arm{c}_{c}"]
)yaml");
  const fs::path hand = write_temp("hand_sections.yaml", "name: sections" + common + R"yaml(
beams:
  - {name: span1, from: a0, to: a1, elements: 1, section: {EA: 1e6, GJ: 10, EIy: 10, EIz: 10}}
  - {name: span2, from: a1, to: a2, elements: 2, section: {EA: 2e6, GJ: 10, EIy: 10, EIz: 10}}
rigid_bodies:
  - {name: lump1, node: a1, mass: 1, inertia: [0.1, 0.1, 0.1]}
  - {name: lump2, node: a2, mass: 2, inertia: [0.2, 0.2, 0.2]}
beam_loads:
  - {name: q1, beam: span1, force: [0, -1, 0]}
  - {name: q2, beam: span2, force: [0, -2, 0]}
chains:
  - {name: arm1, bodies: 1, from: [0, 1, 0], direction: [1, 0, 0], length: 1, mass: 1,
     inertia: [0.01, 0.1, 0.1], joint: {kind: spherical}, ground: {kind: spherical}}
  - {name: arm2, bodies: 2, from: [0, 2, 0], direction: [1, 0, 0], length: 1, mass: 1,
     inertia: [0.01, 0.1, 0.1], joint: {kind: spherical}, ground: {kind: spherical}}
sets:
  - {name: tips, nodes: [arm1_1, arm2_2]}
)yaml");
  const fem::Model g = read_model(generated);
  const fem::Model h = read_model(hand);
  if (!same_nodes_and_elements(g, h)) return;
  const auto gl = elements_of<elements::NodalLoad>(g), hl = elements_of<elements::NodalLoad>(h);
  ASSERT_EQ(gl.size(), 6u);  // two ends of each of the three beam elements
  for (std::size_t k = 0; k < hl.size(); ++k) EXPECT_EQ(gl[k]->value(0.0), hl[k]->value(0.0)) << hl[k]->name();
  ASSERT_EQ(g.sets.size(), 1u);
  EXPECT_EQ(g.sets[0].nodes, h.sets[0].nodes);
  const assembly::Tableau tg(g, PETSC_COMM_WORLD), th(h, PETSC_COMM_WORLD);
  EXPECT_EQ(tg.n_global(), th.n_global());
}

// ---- sets ----

TEST(Generators, SetsCarryLoadsSupportsMassesAndSensors) {
  const fs::path file = write_temp("sets.yaml", R"yaml(name: sets
parameters: {n: 4, L: 2}
nodes:
  - repeat: {index: k, from: 0, to: n}
    items: [{name: "p{k}", position: [k*L, 0, 0]}]
sets:
  - name: free
    nodes:
      - repeat: {index: k, from: 1, to: n}
        items: ["p{k}"]
  - {name: ends, elements: [rod1, "rod{n}"]}
supports: [{node: p0}, {set: free, dofs: [z]}]
masses: [{name: lump, set: free, mass: 2}]
trusses:
  - repeat: {index: k, from: 1, to: n}
    items: [{name: "rod{k}", nodes: ["p{k-1}", "p{k}"], EA: 1e6}]
loads: [{name: sag, set: free, force: [0, "-10*t", 0]}]
analysis: {dt: 0.01, t_end: 0.1}
sensors:
  - {name: x, set: free, quantity: position, component: x}
  - {name: N, set: ends, quantity: axial_force, scale: 2}
)yaml");
  const fem::Model model = read_model(file);
  ASSERT_EQ(model.sets.size(), 2u);
  EXPECT_EQ(model.sets[0].name, "free");
  EXPECT_EQ(model.sets[0].nodes.size(), 4u);
  EXPECT_EQ(model.sets[1].name, "ends");
  ASSERT_EQ(model.sets[1].elements.size(), 2u);
  EXPECT_EQ(model.sets[1].elements[1]->name(), "rod4");
  const auto masses = elements_of<elements::PointMass>(model);
  ASSERT_EQ(masses.size(), 4u);
  EXPECT_EQ(masses[3]->name(), "lump_p4");
  const auto loads = elements_of<elements::NodalLoad>(model);
  ASSERT_EQ(loads.size(), 4u);
  EXPECT_EQ(loads[0]->name(), "sag_p1");
  EXPECT_DOUBLE_EQ(loads[0]->value(0.5).y(), -5.0);
  for (int k = 1; k <= 4; ++k) {
    const auto& fixed = model.registry.block(model.nodes[static_cast<std::size_t>(k)].displacement).fixed;
    EXPECT_FALSE(fixed[0]);
    EXPECT_TRUE(fixed[2]);
  }
  std::vector<std::string> columns;
  for (const fem::Sensor& s : model.sensors) columns.push_back(s.name);
  EXPECT_EQ(columns, (std::vector<std::string>{"x_p1", "x_p2", "x_p3", "x_p4", "N_rod1", "N_rod4"}));
  EXPECT_DOUBLE_EQ(sensor_at_start(model, "x_p3"), 6.0);
  // Stretch rod4 by 1 %: N = EA * 0.01, doubled by the scale.
  std::vector<fem::NodeState> states = model.initial_state;
  states[4].position.x() += 0.02;
  for (const fem::Sensor& s : model.sensors) {
    if (s.name == "N_rod4") {
      EXPECT_NEAR(fem::evaluate_sensor(s, model.nodes, states, model.initial_state), 2e4, 1e-6);
    }
  }
}

// ---- sensor frames ----

/// A tip sensor in a rigid body's frame (origin at its centre of mass, node axes) and in joints'
/// frames A (on the ground, and on a node), at t = 0 and with the frame node moved and turned.
TEST(Generators, SensorsInBodyAndJointFrames) {
  const fs::path file = write_temp("frames.yaml", R"yaml(name: frames
nodes:
  - {name: hub, position: [1, 0, 0], orientation: [0, 0, pi/2]}
  - {name: tip, position: [1, 2, 0], orientation: [0, 0, 0]}
rigid_bodies:
  - {name: wheel, node: hub, mass: 1, inertia: [1, 1, 1], offset: [0.5, 0, 0]}
joints:
  - {name: pin, kind: revolute, node: hub, at: [1, 0, 1], axis: [1, 0, 0]}
  - {name: link, kind: spherical, nodes: [hub, tip], at: [1, 1, 0], axis: [0, 1, 0], x_axis: [0, 0, 1]}
analysis: {type: static, dt: 0.1, t_end: 1}
sensors:
  - {name: body_x, node: tip, quantity: position, component: x, frame: {body: wheel}}
  - {name: body_y, node: tip, quantity: position, component: y, frame: {body: wheel}}
  - {name: body_vx, node: tip, quantity: velocity, component: x, frame: {body: wheel}}
  - {name: pin_x, node: tip, quantity: position, component: x, frame: {joint: pin}}
  - {name: pin_y, node: tip, quantity: position, component: y, frame: {joint: pin}}
  - {name: pin_z, node: tip, quantity: position, component: z, frame: {joint: pin}}
  - {name: link_x, node: tip, quantity: position, component: x, frame: {joint: link}}
  - {name: link_z, node: tip, quantity: position, component: z, frame: {joint: link}}
  - {name: link_rot, node: tip, quantity: rotation, component: y, frame: {joint: link}}
  - {name: hub_x, node: tip, quantity: position, component: x, frame: {node: hub}}
)yaml");
  const fem::Model model = read_model(file);
  const auto value = [&](std::span<const fem::NodeState> states, std::string_view name) {
    for (const fem::Sensor& s : model.sensors)
      if (s.name == name) return fem::evaluate_sensor(s, model.nodes, states, model.initial_state);
    throw std::runtime_error("no sensor");
  };
  const std::span<const fem::NodeState> start = model.initial_state;
  // Body: centre (1, 0.5, 0), axes x = global y: the tip is 1.5 along the body's x.
  EXPECT_NEAR(value(start, "body_x"), 1.5, 1e-15);
  EXPECT_NEAR(value(start, "body_y"), 0.0, 1e-15);
  // Ground revolute about global x: joint z = global x, x = global y, y = global z; point (1, 0, 1).
  EXPECT_NEAR(value(start, "pin_x"), 2.0, 1e-15);
  EXPECT_NEAR(value(start, "pin_y"), -1.0, 1e-15);
  EXPECT_NEAR(value(start, "pin_z"), 0.0, 1e-15);
  // Link: frame A on the hub at (1, 1, 0), z = global y, x = global z: the tip is 1 along z.
  EXPECT_NEAR(value(start, "link_x"), 0.0, 1e-15);
  EXPECT_NEAR(value(start, "link_z"), 1.0, 1e-15);
  // The link's axes (x = global z, y = global x, z = global y) are a turn of -2 pi/3 about
  // (1, 1, 1); the tip (identity triad) seen from them is turned back: y = 2 pi / (3 sqrt 3).
  EXPECT_NEAR(value(start, "link_rot"), 2 * std::numbers::pi / (3 * std::sqrt(3.0)), 1e-14);
  // Same in the hub's own frame: (0, 2, 0) turned back by a quarter turn: x = 2.
  EXPECT_NEAR(value(start, "hub_x"), 2.0, 1e-15);

  // Move and turn the hub: a half turn more about z, shifted by (0, 0, 3), spinning at 2 rad/s.
  std::vector<fem::NodeState> moved = model.initial_state;
  fem::NodeState& hub = moved[0];
  hub.orientation = fem::Quaternion(Eigen::AngleAxisd(std::numbers::pi, fem::Vec3::UnitZ())) * hub.orientation;
  hub.position += fem::Vec3(0, 0, 3);
  hub.angular_velocity = fem::Vec3(0, 0, 2);
  moved[1].velocity = fem::Vec3(1, 0, 0);
  const fem::Mat3 R = hub.orientation.toRotationMatrix();  // hub axes now: x = global -y
  const fem::Vec3 centre = hub.position + R * fem::Vec3(0.5, 0, 0);
  const fem::Vec3 tip_from_centre = moved[1].position - centre;
  EXPECT_NEAR(value(moved, "body_x"), (R.transpose() * tip_from_centre).x(), 1e-14);
  EXPECT_NEAR(value(moved, "body_x"), -2.5, 1e-14);  // centre at (1, -0.5, 3): tip 2.5 along -y, 3 below
  EXPECT_NEAR(value(moved, "body_y"), (R.transpose() * tip_from_centre).y(), 1e-14);
  // Velocity seen from the turning body: R^T (v - ω × (x - x_c)) (the centre does not move).
  const fem::Vec3 relative = moved[1].velocity - hub.angular_velocity.cross(tip_from_centre);
  EXPECT_NEAR(value(moved, "body_vx"), (R.transpose() * relative).x(), 1e-14);
  // The ground frame does not move with the hub.
  EXPECT_NEAR(value(moved, "pin_x"), 2.0, 1e-15);
  // The link's frame A turns with the hub: point at hub + R (offset), axes R (Q).
  const fem::Vec3 link_point = hub.position + R * (model.initial_state[0].orientation.conjugate() *
                                                   (fem::Vec3(1, 1, 0) - fem::Vec3(1, 0, 0)));
  const fem::Vec3 link_z_axis = R * (model.initial_state[0].orientation.conjugate() * fem::Vec3::UnitY());
  EXPECT_NEAR(value(moved, "link_z"), link_z_axis.dot(moved[1].position - link_point), 1e-14);

}

}  // namespace
}  // namespace catena::io
