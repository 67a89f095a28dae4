// The frames of an eigen-analysis's mode series (modes/mode_NN/), read back as a user gets them:
// the motion they draw solves the linearized problem, and their cell data are the section forces
// of that linear motion.
#include "assembly/tableau.hpp"
#include "elements/node_inertia.hpp"
#include "fem/rotation.hpp"
#include "io/model_reader.hpp"
#include "io/vtk_writer.hpp"
#include "support/csv_table.hpp"
#include "support/matrix_market.hpp"
#include "support/test_files.hpp"
#include "support/vtu_reader.hpp"

#include <gtest/gtest.h>

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkIdList.h>
#include <vtkPointData.h>
#include <vtkStringArray.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numbers>
#include <string>
#include <tuple>
#include <vector>

namespace catena {
namespace {

namespace fs = std::filesystem;
using cplx = std::complex<double>;
using Market = std::map<std::pair<int, int>, double>;

const fs::path source_dir = CATENA_SOURCE_DIR;

std::string solver_model(const std::string& name) {
  return (source_dir / "tests" / "solvers" / "models" / (name + ".yaml")).string();
}

std::string mode_directory(std::size_t k) {
  char name[32];
  std::snprintf(name, sizeof name, "mode_%02zu", k);
  return name;
}

/// A frame read back: per node (model order), its position and orientation, and the grid.
struct NodeFrame {
  std::vector<fem::Vec3> position;
  std::vector<fem::Quaternion> orientation;
  vtkSmartPointer<vtkUnstructuredGrid> grid;
};

NodeFrame read_frame(const fs::path& file) {
  NodeFrame f;
  f.grid = testing::read_vtu(file);
  vtkDataArray* id = f.grid->GetPointData()->GetArray("node_id");
  vtkDataArray* q = f.grid->GetPointData()->GetArray("orientation");
  EXPECT_TRUE(id && q) << file;
  if (!id || !q) return f;
  for (vtkIdType p = 0; p < f.grid->GetNumberOfPoints(); ++p) {
    if (id->GetTuple1(p) < 0) continue;  // an element's point
    const auto n = static_cast<std::size_t>(id->GetTuple1(p));
    f.position.resize(std::max(f.position.size(), n + 1), fem::Vec3::Zero());
    f.orientation.resize(f.position.size(), fem::Quaternion::Identity());
    double x[3], w[4];
    f.grid->GetPoint(p, x);
    q->GetTuple(p, w);
    f.position[n] = {x[0], x[1], x[2]};
    f.orientation[n] = fem::Quaternion(w[0], w[1], w[2], w[3]);
  }
  return f;
}

/// Node n's motion from `base` to `frame`: its displacement and the rotation vector of its turn.
struct NodeMotion {
  fem::Vec3 displacement, rotation;
};

NodeMotion motion(const NodeFrame& base, const NodeFrame& frame, std::size_t n) {
  return {frame.position[n] - base.position[n],
          fem::rotation_vector(frame.orientation[n] * base.orientation[n].conjugate())};
}

/// y = A x.
std::vector<cplx> product(const Market& a, const std::vector<cplx>& x) {
  std::vector<cplx> y(x.size());
  for (const auto& [ij, v] : a) y[static_cast<std::size_t>(ij.first)] += v * x[static_cast<std::size_t>(ij.second)];
  return y;
}

double norm(const std::vector<cplx>& x) {
  double s = 0.0;
  for (const cplx& v : x) s += std::norm(v);
  return std::sqrt(s);
}

/// The largest row sum of |a_ij|.
double infinity_norm(const Market& a) {
  std::map<int, double> rows;
  double largest = 0.0;
  for (const auto& [ij, v] : a) largest = std::max(largest, rows[ij.first] += std::abs(v));
  return largest;
}

/// The backward error of (K + s D + s² M) φ = 0: the residual relative to the largest its terms
/// can be for φ, ‖P(s) φ‖ / ((‖K‖ + |s| ‖D‖ + |s|² ‖M‖) ‖φ‖), the measure eigensolvers converge
/// in. Relative to the terms K φ, s D φ, s² M φ themselves it would not tell a drawn mode from the
/// solver's: in a rod whose axial stiffness is 10⁷ times its bending stiffness, axial components
/// of a bending mode as accurate as the quadratic eigensolver gives them leave 1e-6 to 1e-4 of those.
double backward_error(const Market& K, const Market& D, const Market& M, cplx s, const std::vector<cplx>& phi) {
  const std::vector<cplx> Kp = product(K, phi), Dp = product(D, phi), Mp = product(M, phi);
  std::vector<cplx> residual(phi.size());
  for (std::size_t j = 0; j < phi.size(); ++j) residual[j] = Kp[j] + s * Dp[j] + s * s * Mp[j];
  return norm(residual) /
         ((infinity_norm(K) + std::abs(s) * infinity_norm(D) + std::norm(s) * infinity_norm(M)) * norm(phi));
}

/// The mode a series draws, a Im(φ e^{iθ}): φ in the tableau's numbering (`n` unknowns, `map`),
/// from its frames at θ = π/2 (a Re φ) and θ = 0 (a Im φ) against the state `base`, with its
/// largest node motion (rotations times the model's size).
struct DrawnMode {
  std::vector<cplx> phi;
  double largest = 0.0;
};

DrawnMode drawn_mode(const fem::Model& model, const fem::DofMap& map, int n, const NodeFrame& base,
                     const fs::path& series) {
  const NodeFrame at_0 = read_frame(series / io::VtkWriter::frame_file_name(0));
  const NodeFrame at_quarter = read_frame(series / io::VtkWriter::frame_file_name(6));  // of 24
  DrawnMode out{std::vector<cplx>(static_cast<std::size_t>(n)), 0.0};
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    const NodeMotion re = motion(base, at_quarter, i), im = motion(base, at_0, i);
    out.largest = std::max({out.largest, re.displacement.norm(), im.displacement.norm(),
                            model.length_scale * re.rotation.norm(), model.length_scale * im.rotation.norm()});
    for (const auto& [block, r, m] : {std::tuple{model.nodes[i].displacement, re.displacement, im.displacement},
                                      std::tuple{model.nodes[i].rotation, re.rotation, im.rotation}}) {
      if (!block.valid()) continue;
      const auto dofs = map.dofs(block);
      for (int c = 0; c < 3; ++c)
        if (dofs[c] != fem::fixed_dof) out.phi[static_cast<std::size_t>(dofs[c])] = {r[c], m[c]};
    }
  }
  return out;
}

// A rotating cantilever (Coriolis terms make it a quadratic problem whose in-plane modes are
// complex: bending with an axial motion a quarter period behind). The mode each series draws,
// a Im(φ e^{iθ}), is read from its frames at θ = π/2 (a Re φ) and θ = 0 (a Im φ) against the
// state the modes are of (the run's first frame); it solves (K + s D + s² M) φ = 0 with the s of
// modes.csv and the exported matrices, and moves, for any number of modes asked for.
TEST(ModeFrames, EveryDrawnShapeSolvesItsQuadraticEigenproblem) {
  const std::string path = solver_model("rotating_cantilever");
  fem::Model model = io::read_model(path, {});
  elements::add_node_inertia(model);
  const assembly::Tableau tableau(model, PETSC_COMM_WORLD);  // the run's numbering of K, D, M
  const fem::DofMap& map = tableau.global_map();
  const double amplitude = 0.1 * model.length_scale;
  for (const int modes : {2, 4, 6, 10}) {
    const testing::ScratchDirectory scratch;
    const fs::path out = scratch.path() / "out";
    ASSERT_EQ(testing::run_cli({"run", path, "--out", out.string(), "--quiet", "--set",
                                "analysis.modes=" + std::to_string(modes), "--set", "analysis.mode_frames=24", "--set",
                                "analysis.export_matrices=true"})
                  .code,
              0);
    int n = 0;
    const Market K = testing::read_market(out / "K.mtx", n), D = testing::read_market(out / "D.mtx", n),
                 M = testing::read_market(out / "M.mtx", n);
    ASSERT_EQ(n, tableau.n_global());
    const auto rows = testing::read_csv(out / "modes.csv");
    const std::vector<double> s_real = testing::csv_column(rows, "s_real"), s_imag = testing::csv_column(rows, "s_imag");
    ASSERT_EQ(s_real.size(), static_cast<std::size_t>(modes));
    const NodeFrame base = read_frame(out / io::VtkWriter::frame_file_name(0));
    for (std::size_t k = 0; k < s_real.size(); ++k) {
      const DrawnMode drawn = drawn_mode(model, map, n, base, out / "modes" / mode_directory(k + 1));
      const std::string which = mode_directory(k + 1) + " of " + std::to_string(modes);
      EXPECT_GT(drawn.largest, 0.5 * amplitude) << which << ": the drawn shape does not move";
      const cplx s(s_real[k], s_imag[k]);
      EXPECT_LT(backward_error(K, D, M, s, drawn.phi), 1e-8) << which << ", s = " << s;
    }
  }
}

/// The cells of a frame with two points and a finite `field`, with their nodes (node_id).
struct LineCell {
  vtkIdType id;
  std::size_t a, b;
};

std::vector<LineCell> line_cells(vtkUnstructuredGrid& grid, const char* field) {
  std::vector<LineCell> out;
  vtkDataArray* values = grid.GetCellData()->GetArray(field);
  vtkDataArray* node = grid.GetPointData()->GetArray("node_id");
  EXPECT_TRUE(values && node) << field;
  if (!values || !node) return out;
  vtkNew<vtkIdList> points;
  for (vtkIdType c = 0; c < grid.GetNumberOfCells(); ++c) {
    grid.GetCellPoints(c, points);
    if (points->GetNumberOfIds() != 2 || std::isnan(values->GetTuple1(c))) continue;
    out.push_back({c, static_cast<std::size_t>(node->GetTuple1(points->GetId(0))),
                   static_cast<std::size_t>(node->GetTuple1(points->GetId(1)))});
  }
  return out;
}

/// The frame's field-data string `cell_data` ("" when absent).
std::string cell_data_description(vtkUnstructuredGrid& grid) {
  auto* text = vtkStringArray::SafeDownCast(grid.GetFieldData()->GetAbstractArray("cell_data"));
  return text && text->GetNumberOfValues() == 1 ? text->GetValue(0) : std::string();
}

double cell_value(vtkUnstructuredGrid& grid, const char* field, vtkIdType cell) {
  return grid.GetCellData()->GetArray(field)->GetTuple1(cell);
}

/// A beam element's section forces for a linear motion of its nodes from `base` to `frame`:
/// N = EA e·(Δu_b − Δu_a)/l, T = GJ e·(Δθ_b − Δθ_a)/l and, at its middle, |M| = EI |(Δθ_b − Δθ_a) × e|/l
/// (e the chord, l its length); `scale` the largest of EA |Δu_b − Δu_a| / l and EI |Δθ_b − Δθ_a| / l.
struct LinearSectionForces {
  double N, T, M, scale;
};

LinearSectionForces linear_section_forces(const NodeFrame& base, const NodeFrame& frame, const LineCell& c) {
  const double E = 2.1e11, d = 0.02, pi = std::numbers::pi;  // cantilever_modes.yaml's section
  const double I = pi * std::pow(d, 4) / 64, EA = E * pi * d * d / 4, EI = E * I, GJ = E / 2.6 * 2 * I;
  const fem::Vec3 chord = base.position[c.b] - base.position[c.a];
  const double l = chord.norm();
  const fem::Vec3 e = chord / l;
  const NodeMotion a = motion(base, frame, c.a), b = motion(base, frame, c.b);
  const fem::Vec3 du = b.displacement - a.displacement, dtheta = b.rotation - a.rotation;
  return {EA * e.dot(du) / l, GJ * e.dot(dtheta) / l, EI * dtheta.cross(e).norm() / l,
          std::max(EA * du.norm(), EI * dtheta.norm()) / l};
}

// A cantilever's bending and torsion modes (unstressed and straight): in every frame, each beam
// element carries the section forces of the linear motion drawn, from its nodes' displacements Δu
// and rotations Δθ from the state. The elements' own values at the drawn shape, a tenth of the
// rod's length across, are not those: its stretch, of the order of the amplitude squared, gives
// axial forces where the linear motion has none.
TEST(ModeFrames, BeamSectionForcesAreThoseOfTheLinearMotion) {
  const testing::ScratchDirectory scratch;
  const fs::path out = scratch.path() / "out";
  ASSERT_EQ(testing::run_cli({"run", solver_model("cantilever_modes"), "--out", out.string(), "--quiet", "--set",
                              "analysis.modes=9"})  // the ninth: the first torsion mode
                .code,
            0);
  const NodeFrame base = read_frame(out / io::VtkWriter::frame_file_name(0));
  for (std::size_t k = 1; k <= 9; ++k)
    for (const long frame : {3L, 6L, 16L}) {
      const NodeFrame f = read_frame(out / "modes" / mode_directory(k) / io::VtkWriter::frame_file_name(frame));
      EXPECT_TRUE(cell_data_description(*f.grid).starts_with("linearized")) << cell_data_description(*f.grid);
      const std::vector<LineCell> cells = line_cells(*f.grid, "bending_moment_y");
      ASSERT_EQ(cells.size(), 20U);
      std::vector<LinearSectionForces> expected;
      double scale = 0.0;
      for (const LineCell& c : cells) {
        expected.push_back(linear_section_forces(base, f, c));
        scale = std::max(scale, expected.back().scale);
      }
      // 1e-7: the torsion mode's displacements are round-off of the positions (1e-16 m), which
      // EA / l turns into 1e-6 of its torque in axial force: the linear motion has none.
      const double tolerance = 1e-7 * scale;
      for (std::size_t i = 0; i < cells.size(); ++i) {
        const vtkIdType id = cells[i].id;
        const std::string where = mode_directory(k) + " frame " + std::to_string(frame) + " element " + std::to_string(i);
        EXPECT_NEAR(cell_value(*f.grid, "axial_force", id), expected[i].N, tolerance) << where;
        EXPECT_NEAR(cell_value(*f.grid, "torque", id), expected[i].T, tolerance) << where;
        EXPECT_NEAR(std::hypot(cell_value(*f.grid, "bending_moment_y", id), cell_value(*f.grid, "bending_moment_z", id)),
                    expected[i].M, tolerance)
            << where;
      }
    }
}

// A mass on three trusses of different stiffness (its three modes each stretch all three): in
// every frame each truss carries EA e·Δu/L, Δu its free end's displacement from the state, the
// linear axial force; not EA (|x_b − x_a| − L)/L of the drawn shape, which differs by the square
// of the amplitude.
TEST(ModeFrames, TrussAxialForceIsEATimesTheLinearStretch) {
  const testing::ScratchDirectory scratch;
  const fs::path model = testing::write_temp("mode_frames", "tripod.yaml", R"(name: tripod-modes
nodes:
  - {name: a, position: [1, 0, 0]}
  - {name: b, position: [-0.5, 0.8, 0]}
  - {name: c, position: [-0.5, -0.9, 0]}
  - {name: top, position: [0.1, 0.2, 1.5]}
supports: [{node: a}, {node: b}, {node: c}]
masses: [{node: top, mass: 2}]
trusses:
  - {nodes: [a, top], EA: 1e6}
  - {nodes: [b, top], EA: 2e6}
  - {nodes: [c, top], EA: 3e6}
analysis: {type: eigen, modes: 3}
)");
  const fs::path out = scratch.path() / "out";
  ASSERT_EQ(testing::run_cli({"run", model.string(), "--out", out.string(), "--quiet"}).code, 0);
  const NodeFrame base = read_frame(out / io::VtkWriter::frame_file_name(0));
  for (std::size_t k = 1; k <= 3; ++k)
    for (const long frame : {2L, 6L, 20L}) {
      const NodeFrame f = read_frame(out / "modes" / mode_directory(k) / io::VtkWriter::frame_file_name(frame));
      const std::vector<LineCell> cells = line_cells(*f.grid, "axial_force");
      ASSERT_EQ(cells.size(), 3U);
      for (std::size_t i = 0; i < cells.size(); ++i) {
        const LineCell& c = cells[i];
        const double EA = 1e6 * static_cast<double>(i + 1);
        const fem::Vec3 chord = base.position[c.b] - base.position[c.a];
        const double L = chord.norm();
        const fem::Vec3 du = motion(base, f, c.b).displacement - motion(base, f, c.a).displacement;
        EXPECT_NEAR(cell_value(*f.grid, "axial_force", c.id), EA * chord.dot(du) / (L * L), 1e-8 * EA * du.norm() / L)
            << mode_directory(k) << " frame " << frame << " truss " << i;
      }
    }
}

// A shaft under an end torque (cases/buckling-torsion): its buckling mode belongs to the preload
// state (load factor 0, no torque), and is drawn about it, frame 0 being that state with its
// section forces; not about the end of the tracked load path (twice the load, torque 3806 N m),
// where the analysis's states are when it is written.
TEST(ModeFrames, BucklingModeIsDrawnAboutThePreloadState) {
  const testing::ScratchDirectory scratch;
  const fs::path out = scratch.path() / "out";
  ASSERT_EQ(testing::run_cli({"run", (source_dir / "cases" / "buckling-torsion" / "model.yaml").string(), "--out",
                              out.string(), "--quiet"})
                .code,
            0);
  const NodeFrame state = read_frame(out / io::VtkWriter::frame_file_name(0));
  const NodeFrame drawn = read_frame(out / "modes" / "buckling_mode" / io::VtkWriter::frame_file_name(0));
  ASSERT_EQ(drawn.position.size(), state.position.size());
  for (std::size_t n = 0; n < state.position.size(); ++n) {
    const NodeMotion m = motion(state, drawn, n);
    EXPECT_LT(m.displacement.norm() + m.rotation.norm(), 1e-12) << "node " << n;
  }
  vtkDataArray* torque = state.grid->GetCellData()->GetArray("torque");
  vtkDataArray* drawn_torque = drawn.grid->GetCellData()->GetArray("torque");
  ASSERT_TRUE(torque && drawn_torque);
  for (vtkIdType c = 0; c < torque->GetNumberOfTuples(); ++c) {
    if (std::isnan(torque->GetTuple1(c))) continue;  // a node's vertex cell
    EXPECT_EQ(drawn_torque->GetTuple1(c), torque->GetTuple1(c)) << "cell " << c;
  }
  // Scaled as the eigen modes are: at a quarter period (frame 6 of 24) the node that moves most
  // moves by analysis.mode_amplitude (10 % of the model's size), in displacement or, for a mode
  // of rotations, in rotation times that size. The eigensolver's own scale turned it by 3 rad.
  const double size = io::read_model(source_dir / "cases" / "buckling-torsion" / "model.yaml", {}).length_scale;
  const NodeFrame quarter = read_frame(out / "modes" / "buckling_mode" / io::VtkWriter::frame_file_name(6));
  double displacement = 0.0, rotation = 0.0;
  for (std::size_t n = 0; n < state.position.size(); ++n) {
    const NodeMotion m = motion(state, quarter, n);
    displacement = std::max(displacement, m.displacement.norm());
    rotation = std::max(rotation, m.rotation.norm() * size);
  }
  const double largest = displacement > 1e-3 * rotation ? displacement : rotation;
  EXPECT_NEAR(largest, 0.1 * size, 1e-9 * size) << "displacement " << displacement << " m, rotation × size " << rotation;
}

}  // namespace
}  // namespace catena
