// ParaView output read back with VTK's XML reader and compared with the solver: a model with a
// cantilever beam under a tip load, a bar in tension, and a rigid body turned by a driven hinge is
// run in-process (io::read_model, TimeIntegrator, VtkWriter), every frame is recorded next to the
// writer, and each results_NNNNN.vtu must carry exactly the recorded positions, velocities,
// triads and cell values. The last static frame is also checked against closed-form values:
// the cantilever's moments and shear, the bar's tension, the hinge's reactions, the body's triad.
#include "assembly/tableau.hpp"
#include "support/test_files.hpp"
#include "elements/beam.hpp"
#include "elements/joint.hpp"
#include "elements/rigid_body.hpp"
#include "io/model_reader.hpp"
#include "io/progress.hpp"
#include "io/vtk_writer.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"
#include "support/vtu_reader.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <numbers>
#include <string>
#include <vector>

namespace catena::io {
namespace {

namespace fs = std::filesystem;
using fem::NodeState;
using fem::Vec3;

// The model. Cantilever root–tip along x (4 elements, EI about local y, radius 0.05) under a
// dead tip force −P z; a one-element bar along x, clamped at bar_a, pulled by T at bar_b (radius
// 0.02); a rigid body on node hub, its centre 0.5 m from the node along the node's x axis, hanging
// from a ground revolute joint about z whose angle is driven to 0.3 t² (at rest at t = 0, as the joint requires). Beam masses are `rho`
// times unit values: zero for the static run, so the closed forms hold; 1 for the dynamic run.
constexpr double L = 2.0, P = 10.0, EI = 1e6, T = 500.0, body_mass = 3.0, g = 9.81, hinge_rate = 0.3;
constexpr double offset = 0.5, cantilever_radius = 0.05, bar_radius = 0.02;
constexpr int n_cantilever = 4;

constexpr const char* model_text = R"(name: vtk-readback
parameters:
  L: 2
  P: 10
  EI: 1e6
  T: 500
  rho: 0
nodes:
  - {name: root, position: [0, 0, 0]}
  - {name: tip, position: [L, 0, 0]}
  - {name: bar_a, position: [0, 2, 0]}
  - {name: bar_b, position: [1, 2, 0]}
  - {name: hub, position: [0, -2, 0]}
supports:
  - {node: root, dofs: all}
  - {node: bar_a, dofs: all}
beams:
  - {name: cantilever, from: root, to: tip, elements: 4, orientation: [0, 1, 0],
     section: {EA: 1e9, GAy: 1e9, GAz: 1e9, GJ: 1e6, EIy: EI, EIz: EI, radius: 0.05,
               rhoA: rho, rhoJ: 0.01*rho, rhoIy: 0.005*rho, rhoIz: 0.005*rho}}
  - {name: bar, nodes: [bar_a, bar_b], orientation: [0, 1, 0],
     section: {EA: 1e7, GAy: 1e7, GAz: 1e7, GJ: 1e4, EIy: 1e4, EIz: 1e4, radius: 0.02,
               rhoA: rho, rhoJ: 0.01*rho, rhoIy: 0.005*rho, rhoIz: 0.005*rho}}
rigid_bodies:
  - {name: body, node: hub, mass: 3, inertia: [0.1, 0.2, 0.3], offset: [0.5, 0, 0]}
joints:
  - {name: drive, kind: revolute, node: hub, at: [0, -2, 0], axis: [0, 0, 1],
     laws: {rz: {prescribed: "0.3*t^2"}}}
gravity: [0, 0, -9.81]
loads:
  - {node: tip, force: [0, 0, "-P*t"]}
  - {node: bar_b, force: ["T*t", 0, 0]}
analysis: {type: static, dt: 0.5, t_end: 1, newton_tolerance: 1e-12}
)";

using testing::ScratchDirectory;
using testing::read_vtu;

/// Every cell value of every element at every frame, as the writer's sink receives them (vectors
/// as name_x, name_y, name_z, which is how they are compared with the 3-component arrays).
class CellValueRecorder final : public solvers::Observer {
 public:
  using Values = std::map<std::string, double, std::less<>>;
  class Capture final : public fem::CellValueSink {
   public:
    explicit Capture(Values& values) : values_(values) {}
    void set(std::string_view field, double value) override { values_[std::string(field)] = value; }

   private:
    Values& values_;
  };
  void on_frame(const solvers::Frame& f) override {
    std::map<std::string, Values> frame;
    for (const auto& element : f.model->elements) {
      Capture capture(frame[element->name()]);
      element->cell_values(f.states, capture);
    }
    frames.push_back(std::move(frame));
  }
  std::vector<std::map<std::string, Values>> frames;
};

struct ModelRun {
  fem::Model model;
  testing::RecordingObserver states;
  CellValueRecorder cells;
  fs::path out;
};

/// Runs the model in-process with the VTK writer and the recorders on the same frames.
void run_model(ModelRun& run, const fs::path& dir, const std::vector<std::string>& overrides) {
  const fs::path file = dir / "model.yaml";
  std::ofstream(file) << model_text;
  run.model = read_model(file, overrides);
  run.out = dir / "out";
  assembly::Tableau tableau(run.model, PETSC_COMM_WORLD);
  VtkWriter writer(run.out, run.model);
  ObserverFanOut observers;
  observers.add(writer);
  observers.add(run.states);
  observers.add(run.cells);
  solvers::TimeIntegrator integrator(run.model, tableau);
  const solvers::RunStatistics stats = integrator.run(observers);
  ASSERT_FALSE(stats.interrupted);
  ASSERT_EQ(writer.n_frames(), static_cast<long>(run.states.rows.size()));
}

/// The (time, file) entries of results.pvd.
std::vector<std::pair<double, std::string>> read_pvd(const fs::path& file) {
  vtkNew<vtkXMLDataParser> parser;
  parser->SetFileName(file.c_str());
  EXPECT_EQ(parser->Parse(), 1) << file;
  std::vector<std::pair<double, std::string>> entries;
  vtkXMLDataElement* root = parser->GetRootElement();
  vtkXMLDataElement* collection = root ? root->FindNestedElementWithName("Collection") : nullptr;
  EXPECT_NE(collection, nullptr) << file;
  if (collection == nullptr) return entries;
  for (int i = 0; i < collection->GetNumberOfNestedElements(); ++i) {
    vtkXMLDataElement* e = collection->GetNestedElement(i);
    const char* t = e->GetAttribute("timestep");
    const char* name = e->GetAttribute("file");
    EXPECT_TRUE(t != nullptr && name != nullptr);
    if (t && name) entries.emplace_back(std::strtod(t, nullptr), name);
  }
  return entries;
}


vtkDataArray* point_array(vtkUnstructuredGrid& grid, const char* name, int components) {
  vtkDataArray* a = grid.GetPointData()->GetArray(name);
  EXPECT_NE(a, nullptr) << "point array " << name;
  if (a != nullptr) {
    EXPECT_EQ(a->GetNumberOfComponents(), components) << name;
    EXPECT_EQ(a->GetNumberOfTuples(), grid.GetNumberOfPoints()) << name;
  }
  return a;
}

Vec3 tuple3(vtkDataArray& a, vtkIdType i) { return {a.GetComponent(i, 0), a.GetComponent(i, 1), a.GetComponent(i, 2)}; }

/// The element output cells in writer order (elements with an output point or cell nodes), then
/// one vertex per node.
std::vector<const fem::Element*> cell_owners(const fem::Model& m) {
  std::vector<const fem::Element*> owners;
  for (const auto& e : m.elements)
    if (e->output_point(m.initial_state) || !e->cell_nodes().empty()) owners.push_back(e.get());
  return owners;
}

/// Compares every point and cell array of every written frame with the recorded solver state.
void expect_files_match_run(const ModelRun& run) {
  const fem::Model& m = run.model;
  const auto entries = read_pvd(run.out / VtkWriter::index_file_name);
  ASSERT_EQ(entries.size(), run.states.rows.size());
  const std::vector<const fem::Element*> owners = cell_owners(m);
  const auto n_nodes = static_cast<vtkIdType>(m.nodes.size());
  std::vector<const fem::Element*> point_owners;
  for (const auto& e : m.elements)
    if (e->output_point(m.initial_state)) point_owners.push_back(e.get());

  for (std::size_t k = 0; k < entries.size(); ++k) {
    SCOPED_TRACE("frame " + std::to_string(k));
    const auto& row = run.states.rows[k];
    EXPECT_EQ(entries[k].first, row.t);
    EXPECT_EQ(entries[k].second, VtkWriter::frame_file_name(static_cast<long>(k)));
    const auto grid = read_vtu(run.out / entries[k].second);
    ASSERT_NE(grid, nullptr);
    ASSERT_EQ(grid->GetNumberOfPoints(), n_nodes + static_cast<vtkIdType>(point_owners.size()));
    vtkDataArray* time = grid->GetFieldData()->GetArray("TIME");
    ASSERT_NE(time, nullptr);
    EXPECT_EQ(time->GetTuple1(0), row.t);

    vtkDataArray* displacement = point_array(*grid, "displacement", 3);
    vtkDataArray* velocity = point_array(*grid, "velocity", 3);
    vtkDataArray* orientation = point_array(*grid, "orientation", 4);
    vtkDataArray* omega = point_array(*grid, "angular_velocity", 3);
    vtkDataArray* radius = point_array(*grid, "section_radius", 1);
    vtkDataArray* frame_node = point_array(*grid, "frame_node", 1);
    std::array<vtkDataArray*, 3> directors{};
    for (int d = 0; d < 3; ++d)
      directors[static_cast<std::size_t>(d)] = point_array(*grid, ("director_" + std::to_string(d + 1)).c_str(), 3);
    ASSERT_TRUE(displacement && velocity && orientation && omega && radius && frame_node && directors[0] &&
                directors[1] && directors[2]);

    for (vtkIdType i = 0; i < n_nodes; ++i) {
      const NodeState& s = row.states[static_cast<std::size_t>(i)];
      const fem::Node& node = m.nodes[static_cast<std::size_t>(i)];
      SCOPED_TRACE("node " + node.name);
      double x[3];
      grid->GetPoint(i, x);
      EXPECT_EQ(Vec3(x[0], x[1], x[2]), s.position);
      EXPECT_EQ(tuple3(*displacement, i), Vec3(s.position - node.reference_position));
      EXPECT_EQ(tuple3(*velocity, i), s.velocity);
      ASSERT_EQ(node.kind, fem::NodeKind::Frame);  // every node of this model has a triad
      EXPECT_EQ(frame_node->GetComponent(i, 0), 1.0);
      EXPECT_EQ(tuple3(*omega, i), s.angular_velocity);
      const double* q = orientation->GetTuple4(i);
      EXPECT_EQ(q[0], s.orientation.w());
      EXPECT_EQ(q[1], s.orientation.x());
      EXPECT_EQ(q[2], s.orientation.y());
      EXPECT_EQ(q[3], s.orientation.z());
      // The directors are the columns of R, the node axes in global components.
      const fem::Mat3 R = s.orientation.toRotationMatrix();
      for (int d = 0; d < 3; ++d)
        EXPECT_LE((tuple3(*directors[static_cast<std::size_t>(d)], i) - R.col(d)).norm(), 1e-15) << "director " << d;
    }
    // The joint's point, after the nodes: frame B's joint point, no triad of its own.
    for (std::size_t j = 0; j < point_owners.size(); ++j) {
      const vtkIdType id = n_nodes + static_cast<vtkIdType>(j);
      double x[3];
      grid->GetPoint(id, x);
      EXPECT_EQ(Vec3(x[0], x[1], x[2]), *point_owners[j]->output_point(row.states));
      EXPECT_EQ(frame_node->GetComponent(id, 0), 0.0);
      EXPECT_EQ(radius->GetComponent(id, 0), 0.0);
      EXPECT_EQ(tuple3(*directors[0], id), Vec3::UnitX());
    }

    // Cells: one per element that has one, in element order, then one vertex per node.
    ASSERT_EQ(grid->GetNumberOfCells(), static_cast<vtkIdType>(owners.size()) + n_nodes);
    vtkCellData* cell_data = grid->GetCellData();
    std::map<std::string, bool, std::less<>> seen;
    for (std::size_t c = 0; c < owners.size(); ++c) {
      const auto cell = static_cast<vtkIdType>(c);
      SCOPED_TRACE("cell of " + owners[c]->name());
      const auto& expected = run.cells.frames[k].at(owners[c]->name());
      for (int a = 0; a < cell_data->GetNumberOfArrays(); ++a) {
        vtkDataArray* array = cell_data->GetArray(a);
        const std::string name = array->GetName();
        for (int comp = 0; comp < array->GetNumberOfComponents(); ++comp) {
          const std::string key = array->GetNumberOfComponents() == 1 ? name : name + "_" + "xyz"[comp];
          const double value = array->GetComponent(cell, comp);
          if (const auto it = expected.find(key); it != expected.end()) {
            EXPECT_EQ(value, it->second) << key;
            seen[key] = true;
          } else {
            EXPECT_TRUE(std::isnan(value)) << key << " set on a cell whose element has no such field";
          }
        }
      }
      for (const auto& [key, value] : expected) EXPECT_TRUE(seen.contains(key)) << key << " missing from the file";
      seen.clear();
    }
    for (vtkIdType i = 0; i < n_nodes; ++i) {
      const vtkIdType cell = static_cast<vtkIdType>(owners.size()) + i;
      EXPECT_EQ(grid->GetCellType(cell), VTK_VERTEX);
      vtkNew<vtkIdList> ids;
      grid->GetCellPoints(cell, ids);
      ASSERT_EQ(ids->GetNumberOfIds(), 1);
      EXPECT_EQ(ids->GetId(0), i);
    }
  }
}

TEST(VtkReadBack, StaticModelMatchesSolverStateAndClosedForms) {
  const ScratchDirectory dir;
  ModelRun run;
  run_model(run, dir.path(), {});
  if (HasFatalFailure()) return;
  expect_files_match_run(run);
  if (HasFatalFailure()) return;

  const fem::Model& m = run.model;
  const auto last = read_vtu(run.out / VtkWriter::frame_file_name(static_cast<long>(run.states.rows.size() - 1)));
  ASSERT_NE(last, nullptr);
  ASSERT_DOUBLE_EQ(run.states.rows.back().t, 1.0);

  // Cells in element order: the cantilever's four elements, the bar, the body, the joint.
  const std::vector<const fem::Element*> owners = cell_owners(m);
  ASSERT_EQ(owners.size(), static_cast<std::size_t>(n_cantilever + 3));
  std::map<std::string, vtkIdType> cell_of;
  for (std::size_t c = 0; c < owners.size(); ++c) cell_of[owners[c]->name()] = static_cast<vtkIdType>(c);
  for (int e = 1; e <= n_cantilever; ++e) EXPECT_EQ(last->GetCellType(cell_of.at("cantilever_" + std::to_string(e))), VTK_LINE);
  EXPECT_EQ(last->GetCellType(cell_of.at("bar")), VTK_LINE);
  EXPECT_EQ(last->GetCellType(cell_of.at("body")), VTK_VERTEX);
  EXPECT_EQ(last->GetCellType(cell_of.at("drive")), VTK_VERTEX);

  vtkCellData* cells = last->GetCellData();
  auto cell_value = [&](const char* field, const std::string& element, int component = 0) {
    vtkDataArray* a = cells->GetArray(field);
    EXPECT_NE(a, nullptr) << field;
    return a ? a->GetComponent(cell_of.at(element), component) : std::nan("");
  };

  // Cantilever under a tip force P: at the middle of element e, x_m = (e − ½) L/n, the bending
  // moment has magnitude P (L − x_m), about local y (= global y here), and the shear is P; no
  // torque or bending about z. The deflection is 1e-5 L, so the linear values hold to ~1e-9.
  for (int e = 1; e <= n_cantilever; ++e) {
    const std::string name = "cantilever_" + std::to_string(e);
    SCOPED_TRACE(name);
    const double x_mid = (e - 0.5) * L / n_cantilever;
    EXPECT_NEAR(std::abs(cell_value("bending_moment_y", name)), P * (L - x_mid), 1e-6 * P * L);
    EXPECT_NEAR(std::abs(cell_value("shear_force_z", name)), P, 1e-6 * P);
    EXPECT_NEAR(cell_value("bending_moment_z", name), 0.0, 1e-6 * P * L);
    EXPECT_NEAR(cell_value("shear_force_y", name), 0.0, 1e-6 * P);
    EXPECT_NEAR(cell_value("torque", name), 0.0, 1e-6 * P * L);
    // The dead force has a component P sin θ along the turned element axis, θ ≤ P L²/(2 EI).
    EXPECT_NEAR(cell_value("axial_force", name), 0.0, P * P * L * L / EI);
    EXPECT_EQ(cell_value("radius", name), cantilever_radius);
    // The same sign in every element: the moment grows toward the root.
    EXPECT_GT(cell_value("bending_moment_y", name) * cell_value("bending_moment_y", "cantilever_1"), 0.0);
  }
  // The bar in tension T: axial force T (equilibrium of its free end), nothing else.
  EXPECT_NEAR(cell_value("axial_force", "bar"), T, 1e-9 * T);
  EXPECT_NEAR(cell_value("bending_moment_y", "bar"), 0.0, 1e-9 * T);
  EXPECT_EQ(cell_value("radius", "bar"), bar_radius);
  EXPECT_TRUE(std::isnan(cell_value("radius", "body")));
  EXPECT_TRUE(std::isnan(cell_value("axial_force", "drive")));

  // Per-point section radius for the Tube filter: each beam node its beam's radius, 0 elsewhere.
  vtkDataArray* radius = last->GetPointData()->GetArray("section_radius");
  ASSERT_NE(radius, nullptr);
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    const std::string& name = m.nodes[i].name;
    const double expected = name == "hub" ? 0.0 : name.starts_with("bar") ? bar_radius : cantilever_radius;
    EXPECT_EQ(radius->GetComponent(static_cast<vtkIdType>(i), 0), expected) << name;
  }

  // The rigid body: its node turned by the hinge angle 0.3 about z, at rest.
  const fem::NodeId hub = *m.find_node("hub");
  const Eigen::AngleAxisd turn(hinge_rate * 1.0, Vec3::UnitZ());
  const fem::Mat3 R_exact = turn.toRotationMatrix();
  const auto hub_id = static_cast<vtkIdType>(hub.index);
  const double* q = last->GetPointData()->GetArray("orientation")->GetTuple4(hub_id);
  EXPECT_NEAR(std::abs(q[0]), std::cos(0.5 * hinge_rate), 1e-12);
  EXPECT_NEAR(q[3] * (q[0] < 0 ? -1.0 : 1.0), std::sin(0.5 * hinge_rate), 1e-12);
  EXPECT_NEAR(q[1], 0.0, 1e-12);
  EXPECT_NEAR(q[2], 0.0, 1e-12);
  for (int d = 0; d < 3; ++d) {
    const auto name = "director_" + std::to_string(d + 1);
    EXPECT_LE((tuple3(*last->GetPointData()->GetArray(name.c_str()), hub_id) - R_exact.col(d)).norm(), 1e-12) << name;
  }
  EXPECT_EQ(cell_value("mass", "body"), body_mass);
  const Vec3 centre = m.nodes[hub.index].reference_position + R_exact * Vec3(offset, 0.0, 0.0);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(cell_value("centre_of_mass", "body", c), centre[c], 1e-12) << c;

  // The hinge carries the body's weight m g (upward on the body) and the moment of the weight
  // about its point, (R c) × (0, 0, m g); it turned by exactly the driven angle.
  const Vec3 arm = R_exact * Vec3(offset, 0.0, 0.0);
  const Vec3 force(0.0, 0.0, body_mass * g);
  const Vec3 moment = arm.cross(force);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(cell_value("reaction_force_vector", "drive", c), force[c], 1e-9 * body_mass * g) << c;
    EXPECT_NEAR(cell_value("reaction_moment_vector", "drive", c), moment[c], 1e-9 * body_mass * g) << c;
  }
  EXPECT_NEAR(cell_value("reaction_force_z", "drive"), body_mass * g, 1e-9 * body_mass * g);
  EXPECT_NEAR(cell_value("relative_rz", "drive"), hinge_rate, 1e-12);
  for (const char* held : {"relative_x", "relative_y", "relative_z", "relative_rx", "relative_ry"})
    EXPECT_NEAR(cell_value(held, "drive"), 0.0, 1e-12) << held;
}

TEST(VtkReadBack, DynamicRunMatchesSolverStateEveryFrame) {
  const ScratchDirectory dir;
  ModelRun run;
  run_model(run, dir.path(), {"analysis.type=dynamic", "analysis.dt=0.01", "analysis.t_end=0.05", "rho=1"});
  if (HasFatalFailure()) return;
  ASSERT_EQ(run.states.rows.size(), 6U);
  // The run moved: velocities and spins are not zero, so comparing them means something.
  const auto& end = run.states.rows.back().states;
  const fem::NodeId hub = *run.model.find_node("hub");
  EXPECT_NEAR(end[hub.index].angular_velocity.norm(), 2.0 * hinge_rate * 0.05, 1e-6);  // d/dt 0.3 t²
  EXPECT_GT(end[run.model.find_node("tip")->index].velocity.norm(), 1e-6);
  expect_files_match_run(run);
}

}  // namespace
}  // namespace catena::io
