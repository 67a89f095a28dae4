// Output writers (io/vtk_writer, io/csv_writer): a small hand-built model, frames with known states
// and energies, everything read back and compared with what was given (summary.json:
// summary_writer_test.cpp).
#include "elements/point_mass.hpp"
#include "support/test_files.hpp"
#include "elements/truss.hpp"
#include "io/csv_writer.hpp"
#include "io/output_directory.hpp"
#include "io/vtk_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkIdList.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace catena::io {
namespace {

namespace fs = std::filesystem;
using fem::NodeId;
using fem::NodeState;
using fem::Vec3;

using testing::parse_double;
using testing::read_text;
using testing::ScratchDirectory;

/// An element with a three-node cell (a VTK_POLY_LINE) that sets a field no truss sets.
class TestCable final : public fem::Element {
 public:
  TestCable(std::string name, NodeId a, NodeId b, NodeId c) : Element(std::move(name)), nodes_{a, b, c} {}
  std::string_view kind() const override { return "test_cable"; }
  void declare(fem::UnknownRegistry&) override {}
  void stamp(const fem::StepState&, fem::ResidualSink&, fem::JacobianSink&) const override {}
  std::span<const NodeId> cell_nodes() const override { return nodes_; }
  void cell_values(std::span<const NodeState> states, fem::CellValueSink& out) const override {
    out.set("tension", tension(states));
  }
  [[nodiscard]] double tension(std::span<const NodeState> states) const {
    return 7.0 * (states[nodes_[2].index].position - states[nodes_[0].index].position).norm() / 3.0;
  }

 private:
  std::array<NodeId, 3> nodes_;
};

/// Nodes a, b, c (trusses a–b and b–c, a cable a–b–c, a point mass on c) and an isolated node d;
/// sensors in the global frame and in the frame of node a.
class OutputModel {
 public:
  OutputModel() {
    model.name = "writers \"test\"";
    model.gravity = Vec3(0.0, 0.0, -9.81);
    const NodeId a = model.add_node("a", Vec3(0.0, 0.0, 0.0));
    const NodeId b = model.add_node("b", Vec3(1.0, 0.0, 0.0));
    const NodeId c = model.add_node("c", Vec3(1.0, 1.0, 0.5));
    const NodeId d = model.add_node("d", Vec3(2.0, -1.0, 3.0));
    ab = &model.add_element<elements::Truss>("ab", model.attach(a), model.attach(b),
                                             elements::TrussSection{2.1e7}, 1.0);
    bc = &model.add_element<elements::Truss>("bc", model.attach(b), model.attach(c),
                                             elements::TrussSection{3.3e5}, 1.1);
    model.add_element<elements::PointMass>("tip_mass", model.attach(c), 2.5);
    cable = &model.add_element<TestCable>("cable", a, b, c);
    model.sensors.push_back({"tip_x", c, fem::SensorQuantity::Position, 0, std::nullopt});
    model.sensors.push_back({"tip_uz", c, fem::SensorQuantity::Displacement, 2, std::nullopt});
    model.sensors.push_back({"d_vy", d, fem::SensorQuantity::Velocity, 1, std::nullopt});
    model.sensors.push_back({"tip_in_a,y", c, fem::SensorQuantity::Velocity, 1, a});
  }

  /// Node states of frame k: every node moved and moving, node a rotated and spinning.
  [[nodiscard]] std::vector<NodeState> states(int k) const {
    std::vector<NodeState> s = model.initial_state;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const double f = (k + 1) * (static_cast<double>(i) + 1.0) / 3.0;
      s[i].position += Vec3(1e-3 * f, -2e-3 * f * f, 0.1 / (f + 7.0));
      s[i].velocity = Vec3(f / 7.0, -0.3 * f, 1e-9 / f);
    }
    s[0].orientation = fem::Quaternion(Eigen::AngleAxisd(0.3 * k + 0.1, Vec3(1.0, 2.0, 3.0).normalized()));
    s[0].angular_velocity = Vec3(0.5, -1.0 / 3.0, 2.0);
    return s;
  }

  /// Energies of frame k: awkward doubles (thirds, subnormals, large exponents).
  [[nodiscard]] static solvers::EnergyRecord energy(int k, double t) {
    solvers::EnergyRecord e;
    e.t = t;
    e.state.kinetic = (k + 1) / 3.0;
    e.state.strain = 1e-310 * (k + 1);
    e.state.potential = -2.5e17 / (k + 3.0);
    e.state.momentum = Vec3(0.1 * k, -1.0 / 7.0, 1e300);
    e.state.angular_momentum = Vec3(std::sqrt(2.0), -k / 9.0, 6.02214076e23);
    e.work.external_work = 0.1 + 0.2 * k;
    e.work.dissipated = 1.0 / (k + 11.0);
    return e;
  }

  fem::Model model;
  const elements::Truss* ab = nullptr;
  const elements::Truss* bc = nullptr;
  const TestCable* cable = nullptr;
};

/// Frame times with digits that a short format would lose.
const std::array<double, 4> frame_times = {0.0, 0.1, 0.1 + 0.2, 1.0 / 3.0};

solvers::Frame make_frame(const OutputModel& m, const std::vector<NodeState>& states, int k) {
  solvers::Frame f;
  f.t = frame_times[static_cast<std::size_t>(k)];
  f.step = 10L * k;
  f.model = &m.model;
  f.states = states;
  f.energy = OutputModel::energy(k, f.t);
  return f;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

void expect_relative(double actual, double expected, double tolerance, const std::string& what) {
  EXPECT_LE(std::abs(actual - expected), tolerance * std::abs(expected))
      << what << ": " << actual << " vs " << expected;
}

/// The DataSet entries of a .pvd file, parsed as XML: (timestep attribute, file attribute).
std::vector<std::pair<std::string, std::string>> read_pvd(const fs::path& file) {
  vtkNew<vtkXMLDataParser> parser;
  parser->SetFileName(file.c_str());
  EXPECT_EQ(parser->Parse(), 1) << file;
  vtkXMLDataElement* root = parser->GetRootElement();
  EXPECT_NE(root, nullptr);
  if (root == nullptr) return {};
  EXPECT_STREQ(root->GetName(), "VTKFile");
  EXPECT_STREQ(root->GetAttribute("type"), "Collection");
  vtkXMLDataElement* collection = root->FindNestedElementWithName("Collection");
  EXPECT_NE(collection, nullptr);
  if (collection == nullptr) return {};
  std::vector<std::pair<std::string, std::string>> entries;
  for (int i = 0; i < collection->GetNumberOfNestedElements(); ++i) {
    vtkXMLDataElement* e = collection->GetNestedElement(i);
    EXPECT_STREQ(e->GetName(), "DataSet");
    const char* timestep = e->GetAttribute("timestep");
    const char* name = e->GetAttribute("file");
    EXPECT_NE(timestep, nullptr);
    EXPECT_NE(name, nullptr);
    entries.emplace_back(timestep ? timestep : "", name ? name : "");
  }
  return entries;
}

TEST(OutputDirectory, FormatDoubleRoundTripsEveryDigit) {
  for (const double v : {0.0, -0.0, 0.1, 0.1 + 0.2, 1.0 / 3.0, -2.5e17, 1e-310, 6.02214076e23,
                         std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min()}) {
    const std::string text = format_double(v);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), v) << text;
    char printf_text[64];
    std::snprintf(printf_text, sizeof printf_text, "%.17g", v);
    EXPECT_EQ(text, printf_text);
  }
  EXPECT_EQ(format_double(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(format_double(-std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(format_double(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(OutputDirectory, AFileThatCannotBeReplacedIsReportedWithTheReasonAndLeavesNoTemporary) {
  // A directory (not empty) where the file should go: the rename fails with EISDIR or ENOTEMPTY,
  // and the message says so (it once said "Success": the clean-up's status replaced the rename's).
  const ScratchDirectory dir;
  const fs::path file = dir.path() / "summary.json";
  fs::create_directories(file / "inside");
  try {
    replace_file_atomically(file, "{}\n");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("cannot replace it by summary.json.tmp"), std::string::npos) << message;
    EXPECT_EQ(message.find("Success"), std::string::npos) << message;
    EXPECT_TRUE(message.find("Is a directory") != std::string::npos ||
                message.find("Directory not empty") != std::string::npos)
        << message;
  }
  EXPECT_FALSE(fs::exists(dir.path() / "summary.json.tmp"));
  // A directory that does not exist: the reason is named.
  try {
    replace_file_atomically(dir.path() / "missing" / "energy.csv", "t\n");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open for writing (No such file or directory)"), std::string::npos)
        << e.what();
  }
}

TEST(VtkWriter, GridsOfAThousandPointsAreCompressed) {
  const ScratchDirectory dir;
  fem::Model model;
  for (int i = 0; i < 1000; ++i) model.add_node("n" + std::to_string(i), fem::Vec3(0.01 * i, 0.0, 0.0));
  VtkWriter writer(dir.path() / "vtk", model);
  solvers::Frame f;
  f.model = &model;
  f.states = model.initial_state;
  writer.on_frame(f);
  const std::string text = read_text(dir.path() / "vtk" / VtkWriter::frame_file_name(0));
  EXPECT_NE(text.find("vtkZLibDataCompressor"), std::string::npos);
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName((dir.path() / "vtk" / VtkWriter::frame_file_name(0)).c_str());
  reader->Update();
  EXPECT_EQ(reader->GetOutput()->GetNumberOfPoints(), 1000);
}

TEST(VtkWriter, ReadBackMatchesSolverState) {
  const ScratchDirectory dir;
  const OutputModel m;
  const std::size_t n_nodes = m.model.nodes.size();
  VtkWriter writer(dir.path() / "vtk", m.model);

  for (int k = 0; k < static_cast<int>(frame_times.size()); ++k) {
    SCOPED_TRACE("frame " + std::to_string(k));
    const std::vector<NodeState> states = m.states(k);
    writer.on_frame(make_frame(m, states, k));
    EXPECT_EQ(writer.n_frames(), k + 1);

    const fs::path file = dir.path() / "vtk" / VtkWriter::frame_file_name(k);
    ASSERT_TRUE(fs::exists(file)) << file;
    const std::string text = read_text(file);
    EXPECT_NE(text.find("format=\"appended\""), std::string::npos);
    // A small grid is written uncompressed (vtk_writer.cpp: compressed_from_points).
    EXPECT_EQ(text.find("vtkZLibDataCompressor"), std::string::npos);

    vtkNew<vtkXMLUnstructuredGridReader> reader;
    reader->SetFileName(file.c_str());
    reader->Update();
    vtkUnstructuredGrid* grid = reader->GetOutput();
    ASSERT_NE(grid, nullptr);

    // Points and point data, in model order.
    ASSERT_EQ(grid->GetNumberOfPoints(), static_cast<vtkIdType>(n_nodes));
    auto* displacement = vtkDoubleArray::SafeDownCast(grid->GetPointData()->GetArray("displacement"));
    auto* velocity = vtkDoubleArray::SafeDownCast(grid->GetPointData()->GetArray("velocity"));
    auto* node_id = vtkIntArray::SafeDownCast(grid->GetPointData()->GetArray("node_id"));
    ASSERT_NE(displacement, nullptr);
    ASSERT_NE(velocity, nullptr);
    ASSERT_NE(node_id, nullptr);
    EXPECT_EQ(displacement->GetNumberOfComponents(), 3);
    EXPECT_EQ(velocity->GetNumberOfComponents(), 3);
    for (std::size_t i = 0; i < n_nodes; ++i) {
      const auto id = static_cast<vtkIdType>(i);
      double x[3];
      grid->GetPoint(id, x);
      const Vec3 u = states[i].position - m.model.nodes[i].reference_position;
      for (int c = 0; c < 3; ++c) {
        EXPECT_EQ(x[c], states[i].position[c]) << "node " << i;
        EXPECT_EQ(displacement->GetComponent(id, c), u[c]) << "node " << i;
        EXPECT_EQ(velocity->GetComponent(id, c), states[i].velocity[c]) << "node " << i;
      }
      EXPECT_EQ(node_id->GetValue(id), static_cast<int>(i));
    }

    // Cells: ab, bc, cable (the point mass has none), then one vertex per node.
    ASSERT_EQ(grid->GetNumberOfCells(), static_cast<vtkIdType>(3 + n_nodes));
    const std::vector<std::pair<int, std::vector<vtkIdType>>> expected_cells = {
        {VTK_LINE, {0, 1}}, {VTK_LINE, {1, 2}}, {VTK_POLY_LINE, {0, 1, 2}}, {VTK_VERTEX, {0}},
        {VTK_VERTEX, {1}},  {VTK_VERTEX, {2}},  {VTK_VERTEX, {3}}};
    for (std::size_t c = 0; c < expected_cells.size(); ++c) {
      const auto id = static_cast<vtkIdType>(c);
      EXPECT_EQ(grid->GetCellType(id), expected_cells[c].first) << "cell " << c;
      vtkNew<vtkIdList> ids;
      grid->GetCellPoints(id, ids);
      std::vector<vtkIdType> got(ids->GetPointer(0), ids->GetPointer(0) + ids->GetNumberOfIds());
      EXPECT_EQ(got, expected_cells[c].second) << "cell " << c;
    }

    // Cell data: each field where its element sets it, NaN elsewhere (vertex cells included).
    auto* axial_force = vtkDoubleArray::SafeDownCast(grid->GetCellData()->GetArray("axial_force"));
    auto* tension = vtkDoubleArray::SafeDownCast(grid->GetCellData()->GetArray("tension"));
    ASSERT_NE(axial_force, nullptr);
    ASSERT_NE(tension, nullptr);
    EXPECT_EQ(axial_force->GetNumberOfComponents(), 1);
    EXPECT_EQ(grid->GetCellData()->GetNumberOfArrays(), 2);
    const double N_ab = m.ab->axial_force(states);
    const double N_bc = m.bc->axial_force(states);
    ASSERT_NE(N_ab, 0.0);
    ASSERT_NE(N_bc, 0.0);
    expect_relative(axial_force->GetValue(0), N_ab, 1e-12, "axial force ab");
    expect_relative(axial_force->GetValue(1), N_bc, 1e-12, "axial force bc");
    expect_relative(tension->GetValue(2), m.cable->tension(states), 1e-12, "cable tension");
    for (vtkIdType c = 2; c < grid->GetNumberOfCells(); ++c)
      EXPECT_TRUE(std::isnan(axial_force->GetValue(c))) << "axial_force, cell " << c;
    for (vtkIdType c = 0; c < grid->GetNumberOfCells(); ++c) {
      if (c != 2) {
        EXPECT_TRUE(std::isnan(tension->GetValue(c))) << "tension, cell " << c;
      }
    }

    // Field data: the frame's time.
    vtkDataArray* time = grid->GetFieldData()->GetArray("TIME");
    ASSERT_NE(time, nullptr);
    ASSERT_EQ(time->GetNumberOfTuples(), 1);
    EXPECT_EQ(time->GetTuple1(0), frame_times[static_cast<std::size_t>(k)]);

    // The index lists the first frame at once, and every frame so far once brought up to date
    // (the writer replaces it at most twice a second while frames come), with its exact time; no
    // temporary file is left.
    if (k == 0) {
      EXPECT_EQ(read_pvd(dir.path() / "vtk" / VtkWriter::index_file_name).size(), 1U);
    }
    writer.flush_index();
    const auto entries = read_pvd(dir.path() / "vtk" / VtkWriter::index_file_name);
    ASSERT_EQ(entries.size(), static_cast<std::size_t>(k + 1));
    for (int j = 0; j <= k; ++j) {
      const double t = frame_times[static_cast<std::size_t>(j)];
      const double t_read = parse_double(entries[static_cast<std::size_t>(j)].first);
      EXPECT_LE(std::abs(t_read - t), 1e-15 * std::abs(t)) << entries[static_cast<std::size_t>(j)].first;
      EXPECT_EQ(t_read, t);
      EXPECT_EQ(entries[static_cast<std::size_t>(j)].second, VtkWriter::frame_file_name(j));
    }
  }
  EXPECT_EQ(VtkWriter::frame_file_name(0), "results_00000.vtu");
  EXPECT_FALSE(fs::exists(dir.path() / "vtk" / "results.pvd.tmp"));
  std::size_t n_files = 0;
  for (const auto& entry : fs::directory_iterator(dir.path() / "vtk")) {
    EXPECT_NE(entry.path().extension(), ".tmp") << entry.path();
    ++n_files;
  }
  EXPECT_EQ(n_files, frame_times.size() + 1);
}

TEST(VtkWriter, RejectsFrameWithWrongNumberOfStates) {
  const ScratchDirectory dir;
  const OutputModel m;
  VtkWriter writer(dir.path(), m.model);
  std::vector<NodeState> states = m.states(0);
  states.pop_back();
  EXPECT_THROW(writer.on_frame(make_frame(m, states, 0)), std::invalid_argument);
}

/// energy.csv and sensors.csv rows for frames `first` .. `last` − 1, checked against the source.
void expect_csv_rows(const OutputModel& m, const fs::path& dir, int first, int last) {
  const auto energy_lines = split(read_text(dir / "energy.csv"), '\n');
  const auto sensor_lines = split(read_text(dir / "sensors.csv"), '\n');
  ASSERT_EQ(energy_lines.size(), static_cast<std::size_t>(1 + last - first));
  ASSERT_EQ(sensor_lines.size(), static_cast<std::size_t>(1 + last - first));
  EXPECT_EQ(energy_lines[0], "t,kinetic,strain,potential,external_work,dissipated,balance,px,py,pz,Lx,Ly,Lz");
  EXPECT_EQ(sensor_lines[0], "t,tip_x,tip_uz,d_vy,\"tip_in_a,y\"");
  for (int k = first; k < last; ++k) {
    SCOPED_TRACE("frame " + std::to_string(k));
    const double t = frame_times[static_cast<std::size_t>(k)];
    const solvers::EnergyRecord e = OutputModel::energy(k, t);
    const std::vector<double> expected = {t,
                                          e.state.kinetic,
                                          e.state.strain,
                                          e.state.potential,
                                          e.work.external_work,
                                          e.work.dissipated,
                                          e.balance(),
                                          e.state.momentum.x(),
                                          e.state.momentum.y(),
                                          e.state.momentum.z(),
                                          e.state.angular_momentum.x(),
                                          e.state.angular_momentum.y(),
                                          e.state.angular_momentum.z()};
    const auto fields = split(energy_lines[static_cast<std::size_t>(1 + k - first)], ',');
    ASSERT_EQ(fields.size(), expected.size());
    for (std::size_t c = 0; c < expected.size(); ++c)
      EXPECT_EQ(parse_double(fields[c]), expected[c]) << "column " << c;

    const std::vector<NodeState> states = m.states(k);
    const std::string& row = sensor_lines[static_cast<std::size_t>(1 + k - first)];
    const auto values = split(row, ',');
    ASSERT_EQ(values.size(), 1 + m.model.sensors.size()) << row;
    EXPECT_EQ(parse_double(values[0]), t);
    for (std::size_t s = 0; s < m.model.sensors.size(); ++s) {
      const double v = fem::evaluate_sensor(m.model.sensors[s], m.model.nodes, states, m.model.initial_state);
      EXPECT_EQ(parse_double(values[1 + s]), v) << m.model.sensors[s].name;
    }
  }
}

TEST(CsvWriter, RowsReadBackToFullPrecision) {
  const ScratchDirectory dir;
  const OutputModel m;
  CsvWriter writer(dir.path(), m.model);
  for (int k = 0; k < static_cast<int>(frame_times.size()); ++k) {
    const std::vector<NodeState> states = m.states(k);
    writer.on_frame(make_frame(m, states, k));
    // Flushed row by row: the files are complete while the writer is still open.
    expect_csv_rows(m, dir.path(), 0, k + 1);
  }
  // Balance column = EnergyRecord::balance(), not a recomputation that could round differently.
  const auto lines = split(read_text(dir.path() / "energy.csv"), '\n');
  const solvers::EnergyRecord e = OutputModel::energy(3, frame_times[3]);
  EXPECT_EQ(parse_double(split(lines[4], ',')[6]), e.balance());
}

TEST(CsvWriter, AppendKeepsRowsAndTruncateStartsOver) {
  const ScratchDirectory dir;
  const OutputModel m;
  {
    CsvWriter writer(dir.path(), m.model);
    for (int k = 0; k < 2; ++k) writer.on_frame(make_frame(m, m.states(k), k));
  }
  {
    CsvWriter writer(dir.path(), m.model, /*append=*/true);
    for (int k = 2; k < 4; ++k) writer.on_frame(make_frame(m, m.states(k), k));
  }
  expect_csv_rows(m, dir.path(), 0, 4);
  {
    CsvWriter writer(dir.path(), m.model, /*append=*/false);
    writer.on_frame(make_frame(m, m.states(3), 3));
  }
  expect_csv_rows(m, dir.path(), 3, 4);
}

TEST(CsvWriter, AppendRefusesFileOfAnotherModel) {
  const ScratchDirectory dir;
  OutputModel m;
  { const CsvWriter writer(dir.path(), m.model); }
  m.model.sensors.pop_back();
  EXPECT_THROW(CsvWriter(dir.path(), m.model, /*append=*/true), std::runtime_error);
}

}  // namespace
}  // namespace catena::io
