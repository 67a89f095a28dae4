// The YAML model reader: good models build what they say (nodes, masses, trusses, velocities,
// analysis settings, sensors), `--set` overrides change the results, and every bad input in
// tests/io/bad_input/ is rejected at the line and column its first line announces.
#include "io/model_reader.hpp"
#include "support/test_files.hpp"

#include "elements/beam.hpp"
#include "elements/nodal_load.hpp"
#include "elements/point_mass.hpp"
#include "elements/truss.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

namespace catena::io {
namespace {

namespace fs = std::filesystem;

const fs::path source_dir = CATENA_SOURCE_DIR;
const fs::path good_dir = source_dir / "tests" / "io" / "good_input";
const fs::path bad_dir = source_dir / "tests" / "io" / "bad_input";

using testing::elements_of;

const fem::Node& node(const fem::Model& model, std::string_view name) {
  const auto id = model.find_node(name);
  if (!id) throw std::runtime_error("no node " + std::string(name));
  return model.nodes[static_cast<std::size_t>(id->index)];
}

const fem::NodeState& initial(const fem::Model& model, std::string_view name) {
  return model.initial_state[static_cast<std::size_t>(model.find_node(name)->index)];
}

std::array<bool, 3> fixed(const fem::Model& model, std::string_view name) {
  const auto& f = model.registry.block(node(model, name).displacement).fixed;
  return {f[0], f[1], f[2]};
}

double total_mass_on(const fem::Model& model, std::string_view name) {
  double m = 0.0;
  for (const auto* p : elements_of<elements::PointMass>(model))
    if (p->node() == *model.find_node(name)) m += p->mass();
  return m;
}

/// Reads `file` with `overrides`, expecting an InputError; returns it.
InputError read_error(const fs::path& file, std::vector<std::string> overrides = {}) {
  try {
    static_cast<void>(read_model(file, overrides));
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << file << " was accepted";
  return InputError("", 0, 0, "", "");
}

/// Writes `text` to a fresh file under the test temp directory.
fs::path write_temp(const std::string& file_name, const std::string& text) {
  return testing::write_temp("catena_model_reader", file_name, text);
}

TEST(ModelReader, ReadsBathePendulum) {
  const fem::Model model = read_model(good_dir / "bathe_pendulum.yaml");
  EXPECT_EQ(model.name, "bathe-pendulum");
  ASSERT_EQ(model.nodes.size(), 2u);
  EXPECT_EQ(model.nodes[0].name, "pivot");
  EXPECT_EQ(model.nodes[1].name, "bob");
  EXPECT_DOUBLE_EQ(node(model, "bob").reference_position.y(), -3.0443);
  EXPECT_DOUBLE_EQ(initial(model, "bob").position.y(), -3.0443);
  EXPECT_EQ(initial(model, "bob").velocity, fem::Vec3(7.725, 0, 0));
  EXPECT_EQ(initial(model, "pivot").velocity, fem::Vec3::Zero());
  EXPECT_EQ(fixed(model, "pivot"), (std::array<bool, 3>{true, true, true}));
  EXPECT_EQ(fixed(model, "bob"), (std::array<bool, 3>{false, false, false}));
  EXPECT_EQ(model.gravity, fem::Vec3(0, -9.80, 0));

  ASSERT_EQ(elements_of<elements::PointMass>(model).size(), 1u);
  EXPECT_DOUBLE_EQ(total_mass_on(model, "bob"), 10.0);
  const auto trusses = elements_of<elements::Truss>(model);
  ASSERT_EQ(trusses.size(), 1u);
  EXPECT_EQ(trusses[0]->name(), "rod");
  EXPECT_DOUBLE_EQ(trusses[0]->rest_length(), 3.0443);  // default: the initial distance
  EXPECT_EQ(model.element_couplings.size(), model.elements.size());

  EXPECT_EQ(model.analysis.scheme, fem::TimeScheme::Midpoint);
  EXPECT_DOUBLE_EQ(model.analysis.dt, 0.1);
  EXPECT_DOUBLE_EQ(model.analysis.t_end, 41.33);
  EXPECT_EQ(model.analysis.output_every, 1);
  EXPECT_EQ(model.analysis.linear_solver, "auto");
  ASSERT_EQ(model.sensors.size(), 2u);
  EXPECT_EQ(model.sensors[1].name, "tip_y");
  EXPECT_EQ(model.sensors[1].node, *model.find_node("bob"));
  EXPECT_EQ(model.sensors[1].quantity, fem::SensorQuantity::Position);
  EXPECT_EQ(model.sensors[1].component, 1);
  EXPECT_FALSE(model.sensors[1].frame.has_value());
  EXPECT_DOUBLE_EQ(model.length_scale, 3.0443);
}

TEST(ModelReader, BuildsRigidInitialVelocityField) {
  const fem::Model model = read_model(good_dir / "free_flying_chain.yaml");
  ASSERT_EQ(model.nodes.size(), 5u);
  // v = ω × (x − about), ω = (0, 0, 1), about = (400, 0, 0): v = (0, x − 400, 0).
  for (const auto& [name, x] : {std::pair{"n0", 0.0}, {"n1", 100.0}, {"n2", 200.0}, {"n3", 300.0}, {"n4", 400.0}}) {
    EXPECT_DOUBLE_EQ(node(model, name).reference_position.x(), x) << name;
    EXPECT_LT((initial(model, name).velocity - fem::Vec3(0, x - 400.0, 0)).norm(), 1e-12)
        << name << ": " << initial(model, name).velocity.transpose();
  }
  EXPECT_DOUBLE_EQ(total_mass_on(model, "n0"), 50.0);
  EXPECT_DOUBLE_EQ(total_mass_on(model, "n2"), 100.0);
  const auto trusses = elements_of<elements::Truss>(model);
  ASSERT_EQ(trusses.size(), 4u);
  EXPECT_EQ(trusses[2]->name(), "truss_2");  // default names
  for (const auto* t : trusses) EXPECT_DOUBLE_EQ(t->rest_length(), 100.0);
  EXPECT_EQ(model.sensors[0].quantity, fem::SensorQuantity::Displacement);
}

TEST(ModelReader, ReadsEveryFeature) {
  const fem::Model model = read_model(good_dir / "every_feature.yaml");
  ASSERT_EQ(model.nodes.size(), 4u);
  const double w = 2 * std::numbers::pi * 0.5;
  // Rigid field v0 + ω × x for nodes without their own velocity.
  EXPECT_TRUE(initial(model, "tip").velocity.isApprox(fem::Vec3(0, w * 1.5, 0.25)));
  EXPECT_TRUE(initial(model, "roller").velocity.isApprox(fem::Vec3(-w * 1.5, 0, 0.25)));
  EXPECT_EQ(initial(model, "spinner").velocity, fem::Vec3(1, 2, 3));  // its own velocity wins
  EXPECT_TRUE(initial(model, "hub").velocity.isApprox(fem::Vec3(0, 0, 0.25)));
  EXPECT_EQ(fixed(model, "hub"), (std::array<bool, 3>{true, true, true}));
  EXPECT_EQ(fixed(model, "roller"), (std::array<bool, 3>{false, true, true}));
  EXPECT_DOUBLE_EQ(total_mass_on(model, "tip"), 2.5);
  EXPECT_DOUBLE_EQ(total_mass_on(model, "roller"), 0.5);

  const auto trusses = elements_of<elements::Truss>(model);
  ASSERT_EQ(trusses.size(), 3u);
  EXPECT_EQ(trusses[0]->name(), "arm");
  EXPECT_DOUBLE_EQ(trusses[0]->rest_length(), 1.5);
  EXPECT_DOUBLE_EQ(trusses[1]->rest_length(), 2.5);  // given
  EXPECT_EQ(trusses[1]->name(), "truss_1");

  const auto loads = elements_of<elements::NodalLoad>(model);
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(loads[0]->name(), "push");
  EXPECT_EQ(loads[1]->name(), "load_1");
  EXPECT_NEAR(loads[0]->value(0.25).x(), 5 * std::sin(w * 0.25), 1e-12);
  EXPECT_DOUBLE_EQ(loads[0]->value(0.25).z(), -1.0);
  EXPECT_DOUBLE_EQ(loads[1]->value(0.5).y(), 5.0);
  EXPECT_DOUBLE_EQ(loads[1]->value(1.5).y(), 0.0);
  EXPECT_EQ(model.gravity, fem::Vec3(0, 0, -9.81));

  const fem::AnalysisSettings& a = model.analysis;
  EXPECT_EQ(a.scheme, fem::TimeScheme::Trapezoidal);
  EXPECT_DOUBLE_EQ(a.dt, 0.01);
  EXPECT_DOUBLE_EQ(a.t_end, 2.0);
  EXPECT_EQ(a.output_every, 10);
  EXPECT_DOUBLE_EQ(a.dt_min, 1e-6);
  EXPECT_EQ(a.max_newton_iterations, 40);
  EXPECT_DOUBLE_EQ(a.newton_tolerance, 1e-9);
  EXPECT_EQ(a.linear_solver, "klu");

  ASSERT_EQ(model.sensors.size(), 3u);
  EXPECT_EQ(model.sensors[1].name, "tip_defl");
  EXPECT_EQ(model.sensors[1].quantity, fem::SensorQuantity::Displacement);
  EXPECT_EQ(model.sensors[1].component, 1);
  ASSERT_TRUE(model.sensors[1].frame.has_value());
  EXPECT_EQ(model.sensors[1].frame->node, *model.find_node("hub"));
  EXPECT_EQ(model.sensors[1].frame->offset, fem::Vec3::Zero());
  EXPECT_EQ(model.sensors[2].quantity, fem::SensorQuantity::Velocity);
}

TEST(ModelReader, ParameterOverrideChangesLaterParametersAndResults) {
  const std::vector<std::string> set{"l=2", "v0=l*3"};
  const fem::Model model = read_model(good_dir / "bathe_pendulum.yaml", set);
  EXPECT_DOUBLE_EQ(node(model, "bob").reference_position.y(), -2.0);
  EXPECT_DOUBLE_EQ(elements_of<elements::Truss>(model)[0]->rest_length(), 2.0);
  EXPECT_EQ(initial(model, "bob").velocity, fem::Vec3(6, 0, 0));  // an expression of an earlier parameter
}

TEST(ModelReader, DottedPathOverridesReplaceScalars) {
  const std::vector<std::string> set{"analysis.dt=0.5", "analysis.integrator=newmark", "nodes.1.position.0=2",
                                     "nodes[1].velocity[1]=-1", "trusses.rod.EA=5e9", "gravity.1=-g/2"};
  const fem::Model model = read_model(good_dir / "bathe_pendulum.yaml", set);
  EXPECT_DOUBLE_EQ(model.analysis.dt, 0.5);
  EXPECT_EQ(model.analysis.scheme, fem::TimeScheme::Trapezoidal);
  EXPECT_EQ(node(model, "bob").reference_position, fem::Vec3(2, -3.0443, 0));
  EXPECT_EQ(initial(model, "bob").velocity, fem::Vec3(7.725, -1, 0));
  EXPECT_DOUBLE_EQ(elements_of<elements::Truss>(model)[0]->rest_length(), std::hypot(2.0, 3.0443));
  EXPECT_DOUBLE_EQ(model.gravity.y(), -4.9);
}

/// The text of a model file, read as text (the Python module's `catena.Model(text=...)`).
std::string file_text(const fs::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ModelReader, ModelTextReadsAsItsFileWithTheSameOverridesAndRestartDocument) {
  const fs::path file = good_dir / "bathe_pendulum.yaml";
  const ModelText text{file_text(file), "pendulum"};
  const std::vector<std::string> set{"l=2", "analysis.dt=0.05"};
  const fem::Model from_file = read_model(file, set);
  const fem::Model from_text = read_model(text, set);
  EXPECT_EQ(from_text.name, from_file.name);
  EXPECT_EQ(node(from_text, "bob").reference_position, node(from_file, "bob").reference_position);
  EXPECT_EQ(initial(from_text, "bob").velocity, initial(from_file, "bob").velocity);
  EXPECT_EQ(from_text.analysis.dt, 0.05);
  EXPECT_EQ(restart_document(text, set), restart_document(file, set));
}

TEST(ModelReader, ModelTextErrorsCiteTheGivenNameWithLineAndColumn) {
  std::string text = file_text(good_dir / "bathe_pendulum.yaml");
  text.replace(text.find("EA:"), 3, "EB:");
  try {
    static_cast<void>(read_model(ModelText{text, "my pendulum"}));
    ADD_FAILURE() << "an unknown key was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "my pendulum");
    EXPECT_GT(e.line(), 0);
    EXPECT_EQ(std::string(e.what()).rfind("my pendulum:" + std::to_string(e.line()) + ":", 0), 0u) << e.what();
  }
  try {
    static_cast<void>(read_model(ModelText{"name: x\n---\nname: y\n", "two"}));
    ADD_FAILURE() << "a second document was accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "two:3:1: expected one YAML document (the model); found a second one here (after '---' or '...')");
  }
}

TEST(ModelReader, LawsReadSensorsDefinedAfterThemAndCoupleTheirNodes) {
  // A nodal force reads a set's sensor (named <sensor>_<member>) and a point along a beam, both
  // defined last: bound to their nodes, and the force's rows coupled with those nodes' blocks.
  const std::string text = R"(name: reads
nodes:
  - {name: a, position: [0, 0, 0]}
  - {name: b, position: [1, 0, 0]}
  - {name: c, position: [0, 1, 0]}
sets:
  - {name: far, nodes: [b]}
beams:
  - {name: arm, from: a, to: b, elements: 2, section: {EA: 1e6, GJ: 1e3, EIy: 1e3, EIz: 1e3, rhoA: 1, rhoJ: 1e-3}}
masses:
  - {node: c, mass: 1}
loads:
  - {node: c, force: ["-4*(x - pos_b) - 2*mid_vy", 0, 0]}
analysis: {dt: 0.01, t_end: 0.1}
sensors:
  - {name: pos, set: far, quantity: position, component: x}
  - {name: mid_vy, beam: arm, at: 0.25, quantity: velocity, component: y}
)";
  const fem::Model model = read_model(ModelText{text, "reads"});
  ASSERT_EQ(model.law_sensors->size(), 2u);
  std::vector<std::int32_t> read;
  for (std::size_t i = 0; i < model.law_sensors->size(); ++i) {
    ASSERT_TRUE(model.law_sensors->bound(i)) << model.law_sensors->name(i);
    for (const fem::LawSensorNode& n : (*model.law_sensors)[i].nodes) read.push_back(n.id.index);
  }
  const auto id = [&](const char* name) { return model.find_node(name)->index; };
  // pos_b reads b; mid_vy, at a quarter of the two-element beam, the nodes a and its middle node.
  EXPECT_EQ(read.front(), id("b"));
  ASSERT_EQ(read.size(), 3u);
  EXPECT_EQ(read[1], id("a"));
  EXPECT_EQ((*model.law_sensors)[1].terms.size(), 2u);
  const fem::Element& force = *model.elements.back();
  const auto [begin, end] = model.element_couplings.back();
  ASSERT_EQ(end - begin, 2u);  // its own row, then its row with the sensors' nodes
  const std::vector<fem::BlockId>& coupling = model.registry.couplings()[begin + 1];
  EXPECT_EQ(coupling.front(), model.nodes[static_cast<std::size_t>(id("c"))].displacement) << force.name();
  for (const std::int32_t n : read) {
    const fem::Node& node = model.nodes[static_cast<std::size_t>(n)];
    EXPECT_NE(std::find(coupling.begin(), coupling.end(), node.displacement), coupling.end()) << node.name;
    EXPECT_NE(std::find(coupling.begin(), coupling.end(), node.rotation), coupling.end()) << node.name;
  }
}

TEST(ModelReader, OverrideAddsKnownOptionalKey) {
  const std::vector<std::string> set{"analysis.output_every=5", "analysis.linear_solver=superlu"};
  const fem::Model model = read_model(good_dir / "bathe_pendulum.yaml", set);
  EXPECT_EQ(model.analysis.output_every, 5);
  EXPECT_EQ(model.analysis.linear_solver, "superlu");
}

TEST(ModelReader, RejectsUnknownOverrideKeyWithSuggestion) {
  const InputError e = read_error(good_dir / "bathe_pendulum.yaml", {"analysis.dtt=0.5"});
  EXPECT_EQ(e.file(), "--set");
  EXPECT_EQ(e.line(), 0);
  EXPECT_EQ(e.key(), "analysis.dtt");
  EXPECT_NE(std::string(e.what()).find("did you mean 'dt'?"), std::string::npos) << e.what();
}

TEST(ModelReader, OverrideOfASectionTheFileLeavesOutAddsItOrNamesTheUnknownKeyInIt) {
  // Issue 20: `--set output.checkpoint_evry=2` on a model without `output` said "unknown parameter
  // or key 'output' in the model (did you mean 'output'?)".
  const std::vector<std::string> set{"output.checkpoint_every=2"};
  const fem::Model model = read_model(good_dir / "bathe_pendulum.yaml", set);
  EXPECT_EQ(model.analysis.checkpoint_every, 2);
  const InputError e = read_error(good_dir / "bathe_pendulum.yaml", {"output.checkpoint_evry=2"});
  EXPECT_EQ(e.key(), "output.checkpoint_evry");
  EXPECT_NE(std::string(e.what()).find("unknown key 'checkpoint_evry' in 'output' (did you mean 'checkpoint_every'?)"),
            std::string::npos)
      << e.what();
}

TEST(ModelReader, RejectsUnknownParameterOverrideWithSuggestion) {
  const InputError e = read_error(good_dir / "bathe_pendulum.yaml", {"mm=3"});
  EXPECT_EQ(e.file(), "--set");
  EXPECT_EQ(e.key(), "mm");
  EXPECT_NE(std::string(e.what()).find("did you mean 'm'?"), std::string::npos) << e.what();
}

TEST(ModelReader, RejectsOverridePathsWhoseBracketsDoNotPair) {
  // Issue 20: a missing ']' was accepted silently (nodes[1.position[0] set something).
  for (const char* path : {"nodes[1.position[0]=2", "nodes[1].position[0=2", "nodes]1[.position=2", "nodes[[1]]=2"}) {
    const InputError e = read_error(good_dir / "bathe_pendulum.yaml", {path});
    EXPECT_EQ(e.file(), "--set") << path;
    EXPECT_NE(std::string(e.what()).find("an index is written [1]"), std::string::npos) << e.what();
  }
}

TEST(ModelReader, RejectsMalformedOverrides) {
  EXPECT_NE(std::string(read_error(good_dir / "bathe_pendulum.yaml", {"analysis.dt"}).what()).find("key=value"),
            std::string::npos);
  EXPECT_NE(std::string(read_error(good_dir / "bathe_pendulum.yaml", {"nodes.7.position.0=1"}).what())
                .find("out of range"),
            std::string::npos);
  EXPECT_NE(std::string(read_error(good_dir / "bathe_pendulum.yaml", {"trusses.rood.EA=1"}).what())
                .find("did you mean 'rod'?"),
            std::string::npos);
  EXPECT_NE(std::string(read_error(good_dir / "bathe_pendulum.yaml", {"nodes=1"}).what()).find("single value"),
            std::string::npos);
  EXPECT_NE(std::string(read_error(good_dir / "bathe_pendulum.yaml", {"analysis.dt.x=1"}).what()).find("no key 'x'"),
            std::string::npos);
}

TEST(ModelReader, OverrideOfAValueAliasesShareIsRefusedAndOthersApply) {
  // Issue 39: with node c's position an alias of node b's, --set nodes.2.position.0=5 moved b too.
  const fs::path file = write_temp("aliases.yaml", R"(name: aliases
nodes:
  - {name: a, position: &origin [0, 0, 0]}
  - {name: b, position: &p [1, 0, 0]}
  - {name: c, position: *p}
supports: [{node: a}, {node: b}, {node: c}]
analysis: {dt: 0.1, t_end: 1}
)");
  for (const char* shared : {"nodes.2.position.0=5", "nodes.1.position.0=5", "nodes.c.position[1]=5"}) {
    const InputError e = read_error(file, {shared});
    EXPECT_EQ(e.file(), "--set") << shared;
    EXPECT_NE(std::string(e.what()).find("shared by a YAML anchor and alias (&p on line 4, *p on line 5)"),
              std::string::npos)
        << e.what();
  }
  // A value of its own, even with an anchor no alias uses, is set as before.
  const fem::Model model = read_model(file, std::vector<std::string>{"nodes.0.position.0=-1", "analysis.dt=0.05"});
  EXPECT_EQ(node(model, "a").reference_position, fem::Vec3(-1, 0, 0));
  EXPECT_EQ(node(model, "b").reference_position, fem::Vec3(1, 0, 0));
  EXPECT_EQ(node(model, "c").reference_position, fem::Vec3(1, 0, 0));
  EXPECT_DOUBLE_EQ(model.analysis.dt, 0.05);
}

TEST(ModelReader, BadOverriddenValuePointsAtTheFileAndQuotesTheOverride) {
  const InputError e = read_error(good_dir / "bathe_pendulum.yaml", {"analysis.dt=-1"});
  EXPECT_EQ(e.line(), 21);  // `dt: 0.1` in the file
  EXPECT_EQ(e.column(), 7);
  EXPECT_EQ(e.key(), "analysis.dt");
  EXPECT_NE(std::string(e.what()).find("expected a positive time step [s]; found -1"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("--set analysis.dt=-1"), std::string::npos) << e.what();

  const InputError added = read_error(good_dir / "bathe_pendulum.yaml", {"analysis.output_every=0"});
  EXPECT_EQ(added.file(), "--set");
  EXPECT_EQ(added.key(), "analysis.output_every");
}

TEST(ModelReader, ASectionWithoutRadiusIsDrawnWithTheCircleOfItsRadiusOfGyration) {
  // For ParaView's tubes only: r = 2 √(√(EIy EIz)/EA), a solid circle's radius from its radius
  // of gyration (I/A = r²/4); a given radius is kept.
  const fs::path file = write_temp("section_radius.yaml", R"yaml(name: radii
nodes:
  - {name: a, position: [0, 0, 0]}
  - {name: b, position: [1, 0, 0]}
  - {name: c, position: [2, 0, 0]}
beams:
  - {name: plain, nodes: [a, b], section: {EA: 1e8, GAy: 1e7, GAz: 1e7, GJ: 1e4, EIy: 1e4, EIz: 4e4}}
  - {name: given, nodes: [b, c], section: {EA: 1e8, GAy: 1e7, GAz: 1e7, GJ: 1e4, EIy: 1e4, EIz: 4e4, radius: 0.3}}
supports: [{node: a, dofs: all}]
analysis: {type: static, dt: 1, t_end: 1}
)yaml");
  const fem::Model model = read_model(file);
  const auto beams = elements_of<elements::Beam>(model);
  ASSERT_EQ(beams.size(), 2u);
  EXPECT_NEAR(beams[0]->section().radius, 2.0 * std::sqrt(2e4 / 1e8), 1e-15);
  EXPECT_EQ(beams[1]->section().radius, 0.3);
}

TEST(ModelReader, BeamOffsetsPlaceTheEndPointsAndTheGeneratedNodes) {
  const fs::path file = write_temp("offsets.yaml", R"yaml(name: offsets
nodes:
  - {name: hub, position: [0, 0, 0]}
  - {name: tip, position: [2.2, 0, 0]}
beams:
  - {name: blade, from: hub, to: tip, elements: 4, offsets: [[0.2, 0, 0], [0, 0, 0]],
     section: {EA: 1e6, GAy: 1e6, GAz: 1e6, GJ: 10, EIy: 10, EIz: 10, rhoA: 1, rhoJ: 0.01, rhoIy: 0.005, rhoIz: 0.005}}
supports: [{node: hub, dofs: all}]
analysis: {dt: 0.01, t_end: 0.1}
)yaml");
  const fem::Model model = read_model(file);
  const auto beams = elements_of<elements::Beam>(model);
  ASSERT_EQ(beams.size(), 4u);
  for (const auto* b : beams) EXPECT_NEAR(b->length(), 0.5, 1e-15);
  EXPECT_NEAR(node(model, "blade_1").reference_position.x(), 0.7, 1e-15);
  EXPECT_NEAR(node(model, "blade_3").reference_position.x(), 1.7, 1e-15);
  // The first element starts 0.2 m from the hub node: unstrained at t = 0.
  EXPECT_LT(beams.front()->strains(model.initial_state).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(ModelReader, ValuesWithUnitsAreConvertedToSI) {
  const fs::path file = write_temp("units.yaml", R"yaml(name: units
parameters: {w: "1500 rpm", a: "30 deg"}
nodes:
  - {name: bob, position: ["1500 mm", "2 cm", 0], angular_velocity: [0, 0, "60 rpm"]}
rigid_bodies:
  - {name: body, node: bob, mass: "2000 g", inertia: [1e-3, 1e-3, 1e-3]}
analysis: {dt: "10 ms", t_end: "0.5 min"}
)yaml");
  const fem::Model model = read_model(file);
  EXPECT_NEAR(node(model, "bob").reference_position.x(), 1.5, 1e-15);
  EXPECT_NEAR(node(model, "bob").reference_position.y(), 0.02, 1e-15);
  EXPECT_NEAR(initial(model, "bob").angular_velocity.z(), 2 * std::numbers::pi, 1e-14);
  EXPECT_NEAR(model.analysis.dt, 0.01, 1e-15);
  EXPECT_NEAR(model.analysis.t_end, 30.0, 1e-12);
}

TEST(ModelReader, RejectsMissingFile) {
  const InputError e = read_error(good_dir / "no_such_model.yaml");
  EXPECT_EQ(e.line(), 0);
  EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
}

TEST(ModelReader, ErrorMessageHasFilePlaceKeyAndMessage) {
  const InputError e("model.yaml", 12, 15, "trusses[0].EA", "expected a positive stiffness [N]; found -5");
  EXPECT_STREQ(e.what(), "model.yaml:12:15: trusses[0].EA: expected a positive stiffness [N]; found -5");
  EXPECT_EQ(e.file(), "model.yaml");
  EXPECT_EQ(e.line(), 12);
  EXPECT_EQ(e.column(), 15);
  EXPECT_EQ(e.key(), "trusses[0].EA");
}

/// Every complete model (a ```yaml block starting with `name:`) in docs/model-format.md is valid.
TEST(ModelReader, DocumentationExamplesAreValid) {
  std::ifstream in(source_dir / "docs" / "model-format.md");
  ASSERT_TRUE(in) << "docs/model-format.md is missing";
  std::string line, block;
  bool inside = false;
  int n_models = 0;
  while (std::getline(in, line)) {
    if (!inside && line.starts_with("```yaml")) {
      inside = true;
      block.clear();
    } else if (inside && line.starts_with("```")) {
      inside = false;
      if (!block.starts_with("name:")) continue;
      const fs::path file = write_temp("doc_example_" + std::to_string(n_models++) + ".yaml", block);
      try {
        static_cast<void>(read_model(file));
      } catch (const InputError& e) {
        ADD_FAILURE() << e.what() << "\n" << block;
      }
    } else if (inside) {
      block += line + "\n";
    }
  }
  EXPECT_GE(n_models, 2);
}

// ---- bad input: one file per error class, first line "# expect: LINE:COL: substring", then
// optionally lines "# set: key=value" (--set overrides given with the file; line 0 expects an
// error in the override itself, reported for the file "--set") ----

struct Expectation {
  int line = 0;
  int column = 0;
  std::string substring;
  std::vector<std::string> overrides;
};

Expectation expectation_of(const fs::path& file) {
  std::ifstream in(file);
  std::string first;
  std::getline(in, first);
  const std::string prefix = "# expect: ";
  if (!first.starts_with(prefix)) throw std::runtime_error(file.string() + ": first line must be '# expect: L:C: text'");
  std::istringstream s(first.substr(prefix.size()));
  Expectation e;
  char colon = 0;
  s >> e.line >> colon >> e.column >> colon;
  std::getline(s, e.substring);
  e.substring.erase(0, e.substring.find_first_not_of(' '));
  const std::string set_prefix = "# set: ";
  for (std::string line; std::getline(in, line) && line.starts_with(set_prefix);)
    e.overrides.push_back(line.substr(set_prefix.size()));
  return e;
}

std::vector<std::string> bad_input_files() {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(bad_dir))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

/// "unknown_node_in_truss.yaml" -> "UnknownNodeInTruss"
std::string pascal_case(const std::string& file_name) {
  std::string out;
  bool upper = true;
  for (char c : fs::path(file_name).stem().string()) {
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

class ModelReaderBadInput : public ::testing::TestWithParam<std::string> {};

TEST_P(ModelReaderBadInput, ReportsTheExpectedPlaceAndMessage) {
  const fs::path file = bad_dir / GetParam();
  const Expectation expected = expectation_of(file);
  const InputError e = read_error(file, expected.overrides);
  EXPECT_EQ(e.file(), expected.line == 0 && !expected.overrides.empty() ? "--set" : file.string());
  EXPECT_EQ(e.line(), expected.line) << e.what();
  EXPECT_EQ(e.column(), expected.column) << e.what();
  EXPECT_NE(std::string(e.what()).find(expected.substring), std::string::npos)
      << "expected to contain: " << expected.substring << "\nwhat(): " << e.what();
}

/// Every message quoted in the error table of docs/model-format.md is produced by a model in
/// tests/io/bad_input/: some file's error contains the quote ("..." in a quote stands for any text;
/// "FILE: " for the file name).
TEST(ModelReader, EveryDocumentedErrorIsProducedByABadInputModel) {
  std::vector<std::string> produced;
  for (const std::string& name : bad_input_files()) {
    const fs::path file = bad_dir / name;
    produced.emplace_back(read_error(file, expectation_of(file).overrides).what());
  }
  produced.emplace_back(read_error(bad_dir / "no_such_model.yaml").what());  // the unreadable-file row

  std::ifstream in(source_dir / "docs" / "model-format.md");
  ASSERT_TRUE(in);
  bool in_table = false;
  int quotes = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("## ")) in_table = line == "## Error messages";
    if (!in_table || !line.starts_with("| ") || line.starts_with("| situation")) continue;
    const std::size_t message_cell = line.find(" | ");
    ASSERT_NE(message_cell, std::string::npos) << line;
    const std::string cell = line.substr(message_cell + 3);
    for (std::size_t open = cell.find('`'); open != std::string::npos; open = cell.find('`', open)) {
      const std::size_t close = cell.find('`', open + 1);
      ASSERT_NE(close, std::string::npos) << line;
      std::string quote = cell.substr(open + 1, close - open - 1);
      open = close + 1;
      if (quote.starts_with("FILE: ")) quote.erase(0, 6);
      ++quotes;
      // The pieces between "..." must appear in order.
      std::vector<std::string> pieces;
      for (std::size_t from = 0;;) {
        const std::size_t dots = quote.find("...", from);
        pieces.push_back(quote.substr(from, dots == std::string::npos ? std::string::npos : dots - from));
        if (dots == std::string::npos) break;
        from = dots + 3;
      }
      const bool found = std::any_of(produced.begin(), produced.end(), [&](const std::string& what) {
        std::size_t at = 0;
        for (const std::string& piece : pieces) {
          at = what.find(piece, at);
          if (at == std::string::npos) return false;
          at += piece.size();
        }
        return true;
      });
      EXPECT_TRUE(found) << "no model in tests/io/bad_input/ produces the documented message: " << quote;
    }
  }
  EXPECT_GE(quotes, 60);
}

INSTANTIATE_TEST_SUITE_P(EveryFile, ModelReaderBadInput, ::testing::ValuesIn(bad_input_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return pascal_case(info.param); });

}  // namespace
}  // namespace catena::io
