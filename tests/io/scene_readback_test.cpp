// The scene (io/scene_writer.hpp) read back with VTK's XML reader: a chain of rigid bars with
// revolute joints (links from each centre of mass to its joint points, joint axes), bodies of each
// shape kind after a rotation, the default box of a known inertia, beams and trusses as lines of
// their own points; and through the command line, restart continuity and `output.scene: false`.
// Expected geometry is computed here from the node states the solver reports, not by the writer's
// code.
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "io/progress.hpp"
#include "io/scene_writer.hpp"
#include "io/vtk_writer.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"
#include "support/test_files.hpp"
#include "support/vtu_reader.hpp"

#include <gtest/gtest.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <Eigen/Geometry>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace catena::io {
namespace {

namespace fs = std::filesystem;
using fem::Mat3;
using fem::NodeState;
using fem::Vec3;
using testing::ScratchDirectory;
using testing::read_vtu;

constexpr int part_beam = 1, part_truss = 2, part_link = 3, part_shape = 4, part_joint = 5, part_point_mass = 6;

struct SceneRun {
  fem::Model model;
  testing::RecordingObserver states;
  fs::path out;
};

/// Runs `text` in-process with the scene writer (and the results writer, as `catena run` does).
void run_scene(SceneRun& run, const fs::path& dir, const std::string& text, const std::vector<std::string>& overrides = {}) {
  const fs::path file = dir / "model.yaml";
  std::ofstream(file) << text;
  run.model = read_model(file, overrides);
  run.out = dir / "out";
  assembly::Tableau tableau(run.model, PETSC_COMM_WORLD);
  SceneWriter scene(run.out, run.model);
  ObserverFanOut observers;
  observers.add(scene);
  observers.add(run.states);
  solvers::TimeIntegrator integrator(run.model, tableau);
  ASSERT_FALSE(integrator.run(observers).interrupted);
  ASSERT_EQ(scene.n_frames(), static_cast<long>(run.states.rows.size()));
}


Vec3 point(vtkUnstructuredGrid& g, vtkIdType id) {
  double x[3];
  g.GetPoint(id, x);
  return {x[0], x[1], x[2]};
}

Vec3 tuple3(vtkUnstructuredGrid& g, const char* name, vtkIdType id) {
  vtkDataArray* a = g.GetPointData()->GetArray(name);
  EXPECT_NE(a, nullptr) << name;
  if (a == nullptr) return Vec3::Constant(std::nan(""));
  EXPECT_EQ(a->GetNumberOfComponents(), 3) << name;
  return {a->GetComponent(id, 0), a->GetComponent(id, 1), a->GetComponent(id, 2)};
}

int cell_int(vtkUnstructuredGrid& g, const char* name, vtkIdType cell) {
  vtkDataArray* a = g.GetCellData()->GetArray(name);
  EXPECT_NE(a, nullptr) << name;
  return a ? static_cast<int>(a->GetComponent(cell, 0)) : -1;
}

std::vector<vtkIdType> cell_points(vtkUnstructuredGrid& g, vtkIdType cell) {
  vtkNew<vtkIdList> ids;
  g.GetCellPoints(cell, ids);
  std::vector<vtkIdType> out;
  for (vtkIdType k = 0; k < ids->GetNumberOfIds(); ++k) out.push_back(ids->GetId(k));
  return out;
}

/// The cells of element `e` with part `part`.
std::vector<vtkIdType> cells_of(vtkUnstructuredGrid& g, int part, std::size_t e) {
  std::vector<vtkIdType> out;
  for (vtkIdType c = 0; c < g.GetNumberOfCells(); ++c)
    if (cell_int(g, "part", c) == part && cell_int(g, "element", c) == static_cast<int>(e)) out.push_back(c);
  return out;
}

std::size_t element_index(const fem::Model& m, const std::string& name) {
  for (std::size_t e = 0; e < m.elements.size(); ++e)
    if (m.elements[e]->name() == name) return e;
  ADD_FAILURE() << "no element " << name;
  return 0;
}

/// Every point belongs to exactly one cell: no point is shared between drawn items (nor cells).
void expect_own_points(vtkUnstructuredGrid& g) {
  std::vector<int> users(static_cast<std::size_t>(g.GetNumberOfPoints()), 0);
  std::map<vtkIdType, int> element_of;
  for (vtkIdType c = 0; c < g.GetNumberOfCells(); ++c)
    for (const vtkIdType p : cell_points(g, c)) {
      const int item = cell_int(g, "part", c) * 1000000 + cell_int(g, "element", c);
      // Within a body's shape its faces share vertices; across items nothing is shared.
      if (const auto it = element_of.find(p); it != element_of.end()) {
        EXPECT_EQ(it->second, item) << "point " << p << " shared between items";
        EXPECT_EQ(item / 1000000, part_shape) << "point " << p << " shared between cells";
      }
      element_of[p] = item;
      ++users[static_cast<std::size_t>(p)];
    }
  for (std::size_t p = 0; p < users.size(); ++p) EXPECT_GE(users[p], 1) << "point " << p << " in no cell";
}

// A chain of three bars of length L along x, hanging from a ground hinge at the origin, hinges
// about y between them; bar 3's node sits at its left end (its centre offset by L/2), the others'
// at their centres. Gravity along −z makes it swing in the x–z plane.
constexpr double L = 1.0;
constexpr const char* chain_text = R"(name: scene-chain
nodes:
  - {name: b1, position: [0.5, 0, 0]}
  - {name: b2, position: [1.5, 0, 0]}
  - {name: b3, position: [2, 0, 0]}
rigid_bodies:
  - {name: bar1, node: b1, mass: 1, inertia: [0.001, 0.0833, 0.0833]}
  - {name: bar2, node: b2, mass: 1, inertia: [0.001, 0.0833, 0.0833]}
  - {name: bar3, node: b3, mass: 1, inertia: [0.001, 0.0833, 0.0833], offset: [0.5, 0, 0]}
joints:
  - {name: h0, kind: revolute, node: b1, at: [0, 0, 0], axis: [0, 1, 0]}
  - {name: h1, kind: revolute, nodes: [b1, b2], at: [1, 0, 0], axis: [0, 1, 0]}
  - {name: h2, kind: revolute, nodes: [b2, b3], at: [2, 0, 0], axis: [0, 1, 0]}
gravity: [0, 0, -9.81]
analysis: {dt: 0.01, t_end: 0.2, output_every: 10}
)";

TEST(SceneReadBack, ChainOfBarsLinksJoinCentresToJointPointsAndJointAxesAreTheHinge) {
  const ScratchDirectory dir;
  SceneRun run;
  run_scene(run, dir.path(), chain_text);
  if (HasFatalFailure()) return;
  const fem::Model& m = run.model;
  ASSERT_EQ(run.states.rows.size(), 3U);
  EXPECT_TRUE(fs::exists(run.out / SceneWriter::index_file_name));
  // Each bar: node, centre offset (node axes), and its joint points as offsets from its node.
  struct Bar {
    std::string name, node;
    Vec3 offset;
    std::vector<Vec3> ends;
  };
  const std::vector<Bar> bars{{"bar1", "b1", Vec3::Zero(), {Vec3(-0.5, 0, 0), Vec3(0.5, 0, 0)}},
                              {"bar2", "b2", Vec3::Zero(), {Vec3(-0.5, 0, 0), Vec3(0.5, 0, 0)}},
                              {"bar3", "b3", Vec3(0.5, 0, 0), {Vec3::Zero()}}};
  for (const std::size_t k : {std::size_t{0}, run.states.rows.size() - 1}) {
    SCOPED_TRACE("frame " + std::to_string(k));
    const auto& states = run.states.rows[k].states;
    const auto g = read_vtu(run.out / SceneWriter::frame_file_name(static_cast<long>(k)));
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(g->GetFieldData()->GetArray("TIME")->GetTuple1(0), run.states.rows[k].t);
    std::map<int, int> per_part;
    for (vtkIdType c = 0; c < g->GetNumberOfCells(); ++c) ++per_part[cell_int(*g, "part", c)];
    EXPECT_EQ(per_part[part_link], 5);       // 2 + 2 + 1
    EXPECT_EQ(per_part[part_shape], 3 * 6);  // a default box each
    EXPECT_EQ(per_part[part_joint], 3);
    EXPECT_EQ(per_part.size(), 3U);
    for (vtkIdType c = 0; c < g->GetNumberOfCells(); ++c)  // revolute: 3; other cells 0 (docs/model-format.md)
      EXPECT_EQ(cell_int(*g, "joint_kind", c), cell_int(*g, "part", c) == part_joint ? 3 : 0);
    expect_own_points(*g);
    for (const Bar& bar : bars) {
      SCOPED_TRACE(bar.name);
      const NodeState& s = states[m.find_node(bar.node)->index];
      const Mat3 R = s.orientation.toRotationMatrix();
      const Vec3 centre = s.position + R * bar.offset;
      const auto links = cells_of(*g, part_link, element_index(m, bar.name));
      ASSERT_EQ(links.size(), bar.ends.size());
      std::vector<bool> found(bar.ends.size(), false);
      for (const vtkIdType c : links) {
        EXPECT_EQ(g->GetCellType(c), VTK_LINE);
        const auto ids = cell_points(*g, c);
        ASSERT_EQ(ids.size(), 2U);
        EXPECT_LE((point(*g, ids[0]) - centre).norm(), 1e-12);
        for (std::size_t j = 0; j < bar.ends.size(); ++j)
          if ((point(*g, ids[1]) - (s.position + R * bar.ends[j])).norm() <= 1e-12) found[j] = true;
        // The rigid motion of the link's end, and a visible tube radius: 3 % of the longest link.
        const Vec3 arm = point(*g, ids[1]) - s.position;
        EXPECT_LE((tuple3(*g, "velocity", ids[1]) - (s.velocity + s.angular_velocity.cross(arm))).norm(), 1e-12);
        const double radius = g->GetPointData()->GetArray("section_radius")->GetComponent(ids[0], 0);
        EXPECT_DOUBLE_EQ(radius, 0.03 * 0.5);
      }
      for (std::size_t j = 0; j < found.size(); ++j) EXPECT_TRUE(found[j]) << "no link to attachment " << j;
    }
    // Joint vertices at the hinge points; axis 3 is the hinge axis, y; axes 1 and 2 turn with
    // frame A's body (the ground for h0).
    for (const auto& [joint, body, at0] : {std::tuple{"h0", "", Vec3(0, 0, 0)}, std::tuple{"h1", "b1", Vec3(1, 0, 0)},
                                           std::tuple{"h2", "b2", Vec3(2, 0, 0)}}) {
      SCOPED_TRACE(joint);
      const auto cells = cells_of(*g, part_joint, element_index(m, joint));
      ASSERT_EQ(cells.size(), 1U);
      EXPECT_EQ(g->GetCellType(cells[0]), VTK_VERTEX);
      const vtkIdType id = cell_points(*g, cells[0]).at(0);
      EXPECT_LE((tuple3(*g, "joint_axis_3", id) - Vec3::UnitY()).norm(), 1e-12);
      const Vec3 axis1 = tuple3(*g, "joint_axis_1", id);
      const Vec3 axis2 = tuple3(*g, "joint_axis_2", id);
      EXPECT_NEAR(axis1.norm(), 1.0, 1e-12);
      EXPECT_NEAR(axis1.cross(axis2).dot(Vec3::UnitY()), 1.0, 1e-12);
      if (*body) {
        const fem::NodeId a = *m.find_node(body);
        const Mat3 turn = states[a.index].orientation.toRotationMatrix() *
                          m.initial_state[a.index].orientation.toRotationMatrix().transpose();
        const auto first = read_vtu(run.out / SceneWriter::frame_file_name(0));
        const vtkIdType id0 = cell_points(*first, cells_of(*first, part_joint, element_index(m, joint))[0]).at(0);
        EXPECT_LE((axis1 - turn * tuple3(*first, "joint_axis_1", id0)).norm(), 1e-12);
        // Frame B's point: on the next bar, its node at `at0` minus the bar's offset.
        const Bar& next = bars[std::string(joint) == "h1" ? 1 : 2];
        const NodeState& sb = states[m.find_node(next.node)->index];
        const Vec3 b_point = sb.position + sb.orientation * (at0 - m.nodes[m.find_node(next.node)->index].reference_position);
        EXPECT_LE((point(*g, id) - b_point).norm(), 1e-12);
      } else {
        EXPECT_LE((point(*g, id) - states[m.find_node("b1")->index].position -
                   states[m.find_node("b1")->index].orientation * Vec3(-0.5, 0, 0))
                      .norm(),
                  1e-12);
      }
    }
  }
  // It moved: the last frame is not the first.
  const auto last = read_vtu(run.out / SceneWriter::frame_file_name(2));
  const auto link = cells_of(*last, part_link, element_index(m, "bar3")).at(0);
  EXPECT_GT(tuple3(*last, "displacement", cell_points(*last, link)[1]).norm(), 1e-3);
}

// Four free bodies spinning about a tilted axis, no gravity: a box, a cylinder along y, a sphere
// and one without a shape; and bodies whose default box comes from their inertia.
constexpr const char* shapes_text = R"(name: scene-shapes
nodes:
  - {name: n_box, position: [0, 0, 0], angular_velocity: [1, 2, 3]}
  - {name: n_cyl, position: [5, 0, 0], angular_velocity: [3, -1, 2]}
  - {name: n_sph, position: [10, 0, 0], angular_velocity: [0, 2, 1]}
  - {name: n_none, position: [15, 0, 0], angular_velocity: [1, 0, 0]}
  - {name: n_default, position: [20, 0, 0], angular_velocity: [1, 1, 0]}
  - {name: n_slender, position: [25, 0, 0]}
  - {name: n_massless, position: [30, 0, 0]}
rigid_bodies:
  - {name: box, node: n_box, mass: 2, inertia: [1, 2, 3], offset: [0.3, -0.2, 0.1], shape: {box: {sides: [0.4, 1, 2]}}}
  - {name: cyl, node: n_cyl, mass: 2, inertia: [1, 2, 3], offset: [0, 0.5, 0], shape: {cylinder: {radius: 0.3, length: 2, axis: y}}}
  - {name: sph, node: n_sph, mass: 2, inertia: [1, 1, 1], shape: {sphere: {radius: 0.7}}}
  - {name: none, node: n_none, mass: 2, inertia: [1, 1, 1], shape: none}
  - {name: default, node: n_default, mass: 6, inertia: DEFAULT_INERTIA, offset: [0.1, 0.2, 0.3]}
  - {name: slender, node: n_slender, mass: 0.4565, inertia: [0.0308, 0.0308, 0.0001]}
  - {name: massless, node: n_massless, mass: 0, inertia: [1, 1, 1]}
supports: [{node: n_massless, dofs: all}]
analysis: {dt: 0.01, t_end: 0.3, output_every: 30}
)";

/// The uniform box of sides (1, 2, 3) and mass 6: I = m (b² + c²)/12, ... = (6.5, 5, 2.5), turned
/// by Q into node axes.
Mat3 default_box_axes() {
  return Eigen::AngleAxisd(0.4, Vec3(1, -2, 0.5).normalized()).toRotationMatrix();
}

std::string shapes_model() {
  const Mat3 Q = default_box_axes();
  const Mat3 J = Q * Vec3(6.5, 5.0, 2.5).asDiagonal() * Q.transpose();
  char inertia[256];
  std::snprintf(inertia, sizeof inertia, "[%.17g, %.17g, %.17g, %.17g, %.17g, %.17g]", J(0, 0), J(1, 1), J(2, 2),
                J(0, 1), J(1, 2), J(0, 2));
  std::string text = shapes_text;
  text.replace(text.find("DEFAULT_INERTIA"), std::string("DEFAULT_INERTIA").size(), inertia);
  return text;
}

/// The distinct vertices of a body's shape cells in the body's axes about its centre, and the
/// faces' cell types; checks that every face faces outward.
struct ShapeSeen {
  std::vector<Vec3> local;
  std::map<int, int> cell_types;
};
ShapeSeen shape_in_body_axes(vtkUnstructuredGrid& g, std::size_t e, const NodeState& s, const Vec3& offset) {
  ShapeSeen seen;
  const Mat3 R = s.orientation.toRotationMatrix();
  const Vec3 centre = s.position + R * offset;
  std::set<vtkIdType> ids;
  for (const vtkIdType c : cells_of(g, part_shape, e)) {
    ++seen.cell_types[g.GetCellType(c)];
    const auto face = cell_points(g, c);
    Vec3 normal = Vec3::Zero(), middle = Vec3::Zero();
    for (std::size_t k = 0; k < face.size(); ++k) {
      normal += (point(g, face[k]) - centre).cross(point(g, face[(k + 1) % face.size()]) - centre);
      middle += point(g, face[k]) - centre;
      ids.insert(face[k]);
    }
    EXPECT_GT(normal.dot(middle), 0.0) << "face " << c << " faces inward";
  }
  for (const vtkIdType id : ids) seen.local.push_back(R.transpose() * (point(g, id) - centre));
  return seen;
}

TEST(SceneReadBack, EveryShapeKindTurnsRigidlyWithItsBody) {
  const ScratchDirectory dir;
  SceneRun run;
  run_scene(run, dir.path(), shapes_model());
  if (HasFatalFailure()) return;
  const fem::Model& m = run.model;
  const std::size_t last = run.states.rows.size() - 1;
  ASSERT_EQ(last, 1U);
  const auto g = read_vtu(run.out / SceneWriter::frame_file_name(static_cast<long>(last)));
  ASSERT_NE(g, nullptr);
  expect_own_points(*g);
  const auto& states = run.states.rows[last].states;
  auto state_of = [&](const char* node) { return states[m.find_node(node)->index]; };
  // The bodies turned by more than 0.1 rad: body axes differ from global ones.
  EXPECT_GT(std::abs(Eigen::AngleAxisd(state_of("n_box").orientation).angle()), 0.5);

  const ShapeSeen box = shape_in_body_axes(*g, element_index(m, "box"), state_of("n_box"), Vec3(0.3, -0.2, 0.1));
  ASSERT_EQ(box.local.size(), 8U);
  EXPECT_EQ(box.cell_types.at(VTK_QUAD), 6);
  for (const Vec3& v : box.local) EXPECT_LE((v.cwiseAbs() - Vec3(0.2, 0.5, 1.0)).norm(), 1e-12) << v.transpose();

  const ShapeSeen cyl = shape_in_body_axes(*g, element_index(m, "cyl"), state_of("n_cyl"), Vec3(0, 0.5, 0));
  ASSERT_EQ(cyl.local.size(), 40U);
  EXPECT_EQ(cyl.cell_types.at(VTK_QUAD), 20);
  EXPECT_EQ(cyl.cell_types.at(VTK_POLYGON), 2);
  for (const Vec3& v : cyl.local) {
    EXPECT_NEAR(std::hypot(v.x(), v.z()), 0.3, 1e-12);
    EXPECT_NEAR(std::abs(v.y()), 1.0, 1e-12);
  }

  const ShapeSeen sph = shape_in_body_axes(*g, element_index(m, "sph"), state_of("n_sph"), Vec3::Zero());
  ASSERT_EQ(sph.local.size(), 2U + 7U * 16U);
  EXPECT_EQ(sph.cell_types.at(VTK_TRIANGLE), 32);
  EXPECT_EQ(sph.cell_types.at(VTK_QUAD), 6 * 16);
  for (const Vec3& v : sph.local) EXPECT_NEAR(v.norm(), 0.7, 1e-12);

  EXPECT_TRUE(cells_of(*g, part_shape, element_index(m, "none")).empty());
  EXPECT_TRUE(cells_of(*g, part_shape, element_index(m, "massless")).empty());

  // The default box: sides (1, 2, 3) along Q's columns, whatever the node's turn.
  const ShapeSeen def = shape_in_body_axes(*g, element_index(m, "default"), state_of("n_default"), Vec3(0.1, 0.2, 0.3));
  ASSERT_EQ(def.local.size(), 8U);
  const Mat3 Q = default_box_axes();
  for (const Vec3& v : def.local) EXPECT_LE(((Q.transpose() * v).cwiseAbs() - Vec3(0.5, 1.0, 1.5)).norm(), 1e-9);
  // A slender bar: sides sqrt(6 (It + Ia − It)/m) = 0.0362 raised to 5 % of its length
  // sqrt(6 (2 It − Ia)/m) = 0.8989 (it lies along z). Its two transverse axes are any pair in the
  // x–y plane (equal moments): each corner is half a diagonal of the square section off the axis.
  const ShapeSeen bar = shape_in_body_axes(*g, element_index(m, "slender"), state_of("n_slender"), Vec3::Zero());
  ASSERT_EQ(bar.local.size(), 8U);
  const double length = std::sqrt(6.0 * (2 * 0.0308 - 0.0001) / 0.4565);
  for (const Vec3& v : bar.local) {
    EXPECT_NEAR(std::abs(v.z()), 0.5 * length, 1e-9) << v.transpose();
    EXPECT_NEAR(std::hypot(v.x(), v.y()), 0.05 * length / std::sqrt(2.0), 1e-9) << v.transpose();
  }

  // A body without attachments at its node's place has no links; every shape point moves with
  // its body: velocity v + ω × (p − x).
  EXPECT_TRUE(cells_of(*g, part_link, element_index(m, "sph")).empty());
  ASSERT_EQ(cells_of(*g, part_link, element_index(m, "box")).size(), 1U);  // centre to node
  const NodeState& s = state_of("n_cyl");
  for (const vtkIdType c : cells_of(*g, part_shape, element_index(m, "cyl")))
    for (const vtkIdType id : cell_points(*g, c))
      EXPECT_LE((tuple3(*g, "velocity", id) - (s.velocity + s.angular_velocity.cross(point(*g, id) - s.position))).norm(),
                1e-12);
}

// A cantilever of three 2-node beam elements with a radius, a truss without one, and a point mass.
constexpr const char* beam_text = R"(name: scene-beam
nodes:
  - {name: root, position: [0, 0, 0]}
  - {name: tip, position: [3, 0, 0], velocity: [0, 0, 1]}
  - {name: t_a, position: [0, 2, 0]}
  - {name: t_b, position: [2, 2, 0]}
supports: [{node: root, dofs: all}, {node: t_a, dofs: all}]
beams:
  - {name: arm, from: root, to: tip, elements: 3,
     section: {EA: 1e6, GAy: 1e6, GAz: 1e6, GJ: 50, EIy: 100, EIz: 100, rhoA: 1, rhoJ: 0.01, rhoIy: 0.005,
               rhoIz: 0.005, radius: 0.04}}
trusses:
  - {name: rod, nodes: [t_a, t_b], EA: 1e5}
masses:
  - {node: t_b, mass: 2}
analysis: {dt: 0.01, t_end: 0.05, output_every: 5}
)";

TEST(SceneReadBack, BeamAndTrussElementsAreLinesOfTheirOwnPoints) {
  const ScratchDirectory dir;
  SceneRun run;
  run_scene(run, dir.path(), beam_text);
  if (HasFatalFailure()) return;
  const fem::Model& m = run.model;
  const auto& states = run.states.rows.back().states;
  const auto g = read_vtu(run.out / SceneWriter::frame_file_name(1));
  ASSERT_NE(g, nullptr);
  expect_own_points(*g);
  EXPECT_EQ(g->GetNumberOfCells(), 3 + 1 + 1);
  EXPECT_EQ(g->GetNumberOfPoints(), 3 * 2 + 2 + 1);
  vtkDataArray* radius = g->GetPointData()->GetArray("section_radius");
  ASSERT_NE(radius, nullptr);
  for (int k = 1; k <= 3; ++k) {
    const std::size_t e = element_index(m, "arm_" + std::to_string(k));
    const auto cells = cells_of(*g, part_beam, e);
    ASSERT_EQ(cells.size(), 1U);
    EXPECT_EQ(g->GetCellType(cells[0]), VTK_LINE);
    const auto ids = cell_points(*g, cells[0]);
    const auto nodes = m.elements[e]->cell_nodes();
    ASSERT_EQ(ids.size(), nodes.size());
    for (std::size_t j = 0; j < ids.size(); ++j) {
      const NodeState& s = states[static_cast<std::size_t>(nodes[j].index)];
      EXPECT_EQ(point(*g, ids[j]), s.position);
      EXPECT_EQ(tuple3(*g, "velocity", ids[j]), s.velocity);
      EXPECT_EQ(tuple3(*g, "displacement", ids[j]),
                Vec3(s.position - m.nodes[static_cast<std::size_t>(nodes[j].index)].reference_position));
      EXPECT_EQ(radius->GetComponent(ids[j], 0), 0.04);
    }
  }
  // The tip moved (its initial velocity), so positions are compared at a moved state.
  EXPECT_GT(states[m.find_node("tip")->index].position.z(), 1e-3);
  const auto truss = cells_of(*g, part_truss, element_index(m, "rod"));
  ASSERT_EQ(truss.size(), 1U);
  for (const vtkIdType id : cell_points(*g, truss[0])) EXPECT_DOUBLE_EQ(radius->GetComponent(id, 0), 0.02 * 2.0);
  std::size_t point_masses = 0;
  for (vtkIdType c = 0; c < g->GetNumberOfCells(); ++c)
    if (cell_int(*g, "part", c) == part_point_mass) {
      ++point_masses;
      EXPECT_EQ(g->GetCellType(c), VTK_VERTEX);
      EXPECT_EQ(point(*g, cell_points(*g, c)[0]), states[m.find_node("t_b")->index].position);
    }
  EXPECT_EQ(point_masses, 1U);
}

// A cantilever of 4 elements under a small tip force P along y, solved statically: every beam
// end carries the section resultants of the exact (linear) solution at its own points, Q2 = P and
// M3 = P (L - s) (elements/end_sections.hpp: signs and axes), end k of an element at point k of its
// line; points that are no beam's (a point mass) carry NaN. With deflection_frame the clamped
// root, every point's deflection is its displacement; from the tip node, the tip's is zero.
constexpr const char* loaded_cantilever_text = R"(name: scene-cantilever
nodes:
  - {name: root, position: [0, 0, 0]}
  - {name: tip, position: [2, 0, 0]}
supports: [{node: root, dofs: all}]
beams:
  - {name: arm, from: root, to: tip, elements: 4,
     section: {EA: 1e8, GAy: 1e8, GAz: 1e8, GJ: 1e6, EIy: 1e6, EIz: 1e6, rhoA: 1, rhoJ: 0.01, rhoIy: 0.005,
               rhoIz: 0.005}}
masses:
  - {name: tip_mass, node: tip, mass: 2}
loads:
  - {node: tip, force: [0, 0.001, 0]}
analysis: {type: static, dt: 1, t_end: 1}
output: {deflection_frame: root}
)";

TEST(SceneReadBack, BeamEndsCarryTheirOwnSectionForcesAndEveryPointItsDeflection) {
  constexpr double P = 1e-3, L = 2.0;
  for (const std::string frame : {"root", "tip"}) {
    SCOPED_TRACE("deflection_frame " + frame);
    const ScratchDirectory dir;
    SceneRun run;
    run_scene(run, dir.path(), loaded_cantilever_text, {"output.deflection_frame=" + frame});
    if (HasFatalFailure()) return;
    const fem::Model& m = run.model;
    const auto& states = run.states.rows.back().states;
    const auto g = read_vtu(run.out / SceneWriter::frame_file_name(run.states.rows.size() - 1));
    ASSERT_NE(g, nullptr);
    ASSERT_NE(g->GetPointData()->GetArray("section_force"), nullptr);
    ASSERT_NE(g->GetPointData()->GetArray("deflection"), nullptr);
    ASSERT_NE(g->GetPointData()->GetArray("deflection_local"), nullptr);
    for (int k = 1; k <= 4; ++k) {
      const std::size_t e = element_index(m, "arm_" + std::to_string(k));
      const auto ids = cell_points(*g, cells_of(*g, part_beam, e).at(0));
      ASSERT_EQ(ids.size(), 2U);
      for (std::size_t end = 0; end < 2; ++end) {
        const double s = L * (k - 1 + static_cast<double>(end)) / 4;  // the end's place along the beam
        const Vec3 force = tuple3(*g, "section_force", ids[end]);
        const Vec3 moment = tuple3(*g, "section_moment", ids[end]);
        EXPECT_NEAR(force.y(), P, 1e-9 * P) << "element " << k << " end " << end;
        EXPECT_NEAR(force.x(), 0.0, 1e-8 * P);  // P sin θ, θ ~ P L²/EI ~ 4e-9 rad at the tip
        EXPECT_NEAR(moment.z(), P * (L - s), 1e-9 * P * L) << "element " << k << " end " << end;
        EXPECT_NEAR(moment.x(), 0.0, 1e-9 * P * L);
      }
    }
    const vtkIdType mass_point = cell_points(*g, cells_of(*g, part_point_mass, element_index(m, "tip_mass")).at(0))[0];
    EXPECT_TRUE(std::isnan(tuple3(*g, "section_moment", mass_point).z()));
    const Vec3 tip_motion = states[m.find_node("tip")->index].position - Vec3(L, 0, 0);
    EXPECT_GT(tip_motion.y(), 1e-9);
    for (vtkIdType p = 0; p < g->GetNumberOfPoints(); ++p) {
      const Vec3 deflection = tuple3(*g, "deflection", p);
      if (frame == "root") {
        EXPECT_LT((deflection - tuple3(*g, "displacement", p)).norm(), 1e-15) << "point " << p;
      } else if ((point(*g, p) - states[m.find_node("tip")->index].position).norm() < 1e-12) {
        EXPECT_LT(deflection.norm(), 1e-15) << "point " << p;
      }
    }
  }
}

// From a thousand points on the scene is compressed (LZ4): a chain of 100 bars made by `chains`
// (12 points each: two links and a box, but the last, which has one link; a point per joint)
// reads back with VTK's reader.
TEST(SceneReadBack, LargeSceneIsCompressedAndReadsBack) {
  const ScratchDirectory dir;
  SceneRun run;
  run_scene(run, dir.path(), R"(name: scene-large
chains:
  - {name: bar, bodies: 100, from: [0, 0, 0], direction: [1, 0, 0], length: 1, mass: 1,
     inertia: [1e-4, 0.0833, 0.0833], joint: {kind: spherical}, ground: {kind: spherical}}
gravity: [0, 0, -9.81]
analysis: {dt: 0.01, t_end: 0.02, output_every: 2}
)");
  if (HasFatalFailure()) return;
  const fs::path file = run.out / SceneWriter::frame_file_name(1);
  std::ifstream in(file);
  std::string header;
  std::getline(in, header);
  EXPECT_NE(header.find("vtkLZ4DataCompressor"), std::string::npos) << header;
  const auto g = read_vtu(file);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->GetNumberOfPoints(), 100 * 12 - 2 + 100);  // and a point per joint
  EXPECT_EQ(g->GetNumberOfCells(), 199 + 100 * 6 + 100);
  // The last bar's link ends at its joint with bar 99, 0.5 m from its centre.
  const fem::Model& m = run.model;
  const std::size_t last = element_index(m, "bar_100");
  const auto links = cells_of(*g, part_link, last);
  ASSERT_EQ(links.size(), 1U);
  const auto ids = cell_points(*g, links[0]);
  EXPECT_NEAR((point(*g, ids[1]) - point(*g, ids[0])).norm(), 0.5, 1e-12);
  EXPECT_LE((point(*g, ids[0]) - run.states.rows.back().states[m.find_node("bar_100")->index].position).norm(),
            1e-12);
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(SceneCommandLine, RestartContinuesTheSceneAsTheResultsAndSceneFalseWritesNone) {
  const ScratchDirectory dir;
  const fs::path model = dir.path() / "chain.yaml";
  std::ofstream(model) << chain_text;
  const fs::path whole = dir.path() / "whole", again = dir.path() / "again", fresh = dir.path() / "fresh";
  auto run = [&](const fs::path& out, std::vector<std::string> extra) {
    std::vector<std::string> args{"run", model.string(), "--out", out.string(), "--quiet", "--set", "analysis.t_end=0.4",
                                  "--checkpoint-every", "20", "--set", "analysis.output_every=5"};
    args.insert(args.end(), extra.begin(), extra.end());
    const testing::CliResult r = testing::run_cli(args);
    EXPECT_EQ(r.code, 0) << r.output;
  };
  run(whole, {});
  fs::copy(whole, again, fs::copy_options::recursive);
  // Continued in its own directory from step 20 (frame 4): frames 5.. are cut and rewritten.
  run(again, {"--restart", (again / "checkpoint_000020.ckpt").string()});
  // Into a new directory: the continuation only, numbered on.
  run(fresh, {"--restart", (whole / "checkpoint_000020.ckpt").string()});
  const std::string pvd = read_file(whole / "scene.pvd");
  EXPECT_EQ(pvd, read_file(again / "scene.pvd"));
  // scene.pvd lists the results' frames: same times, scene_ for results_.
  std::string results = read_file(whole / "results.pvd");
  for (std::size_t at = results.find("results_"); at != std::string::npos; at = results.find("results_", at))
    results.replace(at, 8, "scene_");
  EXPECT_EQ(pvd, results);
  for (long k = 0; k <= 8; ++k) {
    const std::string name = SceneWriter::frame_file_name(k);
    ASSERT_TRUE(fs::exists(whole / name)) << name;
    EXPECT_EQ(read_file(whole / name), read_file(again / name)) << name;
    EXPECT_EQ(fs::exists(fresh / name), k >= 5) << name;
    if (k >= 5) {
      EXPECT_EQ(read_file(whole / name), read_file(fresh / name)) << name;
    }
  }
  EXPECT_FALSE(fs::exists(whole / SceneWriter::frame_file_name(9)));
  EXPECT_NE(read_file(fresh / "scene.pvd").find("scene_00005.vtu"), std::string::npos);

  const fs::path none = dir.path() / "none";
  run(none, {"--set", "output.scene=false"});
  EXPECT_TRUE(fs::exists(none / "results.pvd"));
  EXPECT_FALSE(fs::exists(none / "scene.pvd"));
  for (const auto& entry : fs::directory_iterator(none))
    EXPECT_FALSE(entry.path().filename().string().starts_with("scene")) << entry.path();
}

}  // namespace
}  // namespace catena::io
