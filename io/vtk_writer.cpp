#include "io/vtk_writer.hpp"

#include "io/output_directory.hpp"

#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <limits>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace catena::io {

namespace fs = std::filesystem;

namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

/// One index entry of results.pvd.
struct PvdEntry {
  double t;
  std::string file;
};

std::string pvd_text(const std::vector<PvdEntry>& entries) {
  std::string text = "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"";
  text += std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian";
  text += "\">\n  <Collection>\n";
  for (const PvdEntry& e : entries) {
    text += "    <DataSet timestep=\"" + format_double(e.t) + "\" group=\"\" part=\"0\" file=\"" + e.file +
            "\"/>\n";
  }
  text += "  </Collection>\n</VTKFile>\n";
  return text;
}

}  // namespace

struct VtkWriter::Impl {
  /// A cell-data field set by some element (1 component, or 3 for a vector), filled with NaN
  /// before each frame.
  struct CellField {
    std::string name;
    vtkSmartPointer<vtkDoubleArray> values;
  };

  /// Receives `Element::cell_values` for one cell.
  class Sink final : public fem::CellValueSink {
   public:
    Sink(Impl& impl, vtkIdType cell) : impl_(impl), cell_(cell) {}
    void set(std::string_view field, double value) override {
      impl_.cell_field(field, 1).SetValue(cell_, value);
    }
    void set_vector(std::string_view field, const fem::Vec3& v) override {
      impl_.cell_field(field, 3).SetTuple3(cell_, v.x(), v.y(), v.z());
    }

   private:
    Impl& impl_;
    vtkIdType cell_;
  };

  Impl(fs::path dir, const fem::Model& m) : directory(std::move(dir)), model(m) {}

  fs::path directory;
  const fem::Model& model;
  vtkNew<vtkUnstructuredGrid> grid;
  vtkNew<vtkPoints> points;
  vtkNew<vtkDoubleArray> displacement;
  vtkNew<vtkDoubleArray> velocity;
  vtkNew<vtkIntArray> node_id;
  vtkNew<vtkDoubleArray> orientation;
  std::array<vtkNew<vtkDoubleArray>, 3> directors;
  vtkNew<vtkDoubleArray> angular_velocity;
  vtkNew<vtkDoubleArray> section_radius;
  vtkNew<vtkIntArray> frame_node;
  vtkNew<vtkDoubleArray> time;
  std::vector<CellField> cell_fields;
  /// Elements that own a cell, with its id (element cells come first, in element order).
  std::vector<std::pair<const fem::Element*, vtkIdType>> element_cells;
  /// Elements with an output point of their own (joints), with its point id (after the nodes)
  /// and its position at t = 0.
  struct ElementPoint {
    const fem::Element* element;
    vtkIdType point;
    fem::Vec3 x0;
  };
  std::vector<ElementPoint> element_points;
  vtkNew<vtkXMLUnstructuredGridWriter> writer;
  std::vector<PvdEntry> entries;
  /// Index of the first frame this writer wrote or kept (a restart into a new directory
  /// continues the numbering of the run it continues).
  long first_index = 0;

  void build_topology();
  void build_constant_point_arrays();
  vtkDoubleArray& cell_field(std::string_view name, int components);
  void write(const solvers::Frame& frame);
};

void VtkWriter::Impl::build_topology() {
  const auto n_nodes = static_cast<vtkIdType>(model.nodes.size());
  vtkIdType n_points = n_nodes;
  for (const auto& element : model.elements)
    if (const auto p = element->output_point(model.initial_state))
      element_points.push_back({element.get(), n_points++, *p});
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(n_points);
  for (vtkIdType i = 0; i < n_nodes; ++i) {
    const fem::Vec3& x = model.nodes[static_cast<std::size_t>(i)].reference_position;
    points->SetPoint(i, x.x(), x.y(), x.z());
  }
  for (const ElementPoint& p : element_points) points->SetPoint(p.point, p.x0.x(), p.x0.y(), p.x0.z());
  grid->SetPoints(points);

  std::vector<vtkIdType> ids;
  std::size_t next_point = 0;
  for (const auto& element : model.elements) {
    if (next_point < element_points.size() && element_points[next_point].element == element.get()) {
      const vtkIdType id = grid->InsertNextCell(VTK_VERTEX, 1, &element_points[next_point++].point);
      element_cells.emplace_back(element.get(), id);
      continue;
    }
    const auto cell = element->cell_nodes();
    if (cell.empty()) continue;
    ids.clear();
    for (const fem::NodeId n : cell) {
      if (n.index < 0 || n.index >= n_nodes)
        throw std::invalid_argument("element '" + element->name() + "': cell node index " +
                                    std::to_string(n.index) + " outside the model's " +
                                    std::to_string(n_nodes) + " nodes; cannot write VTK output");
      ids.push_back(n.index);
    }
    const int type = ids.size() == 1 ? VTK_VERTEX : ids.size() == 2 ? VTK_LINE : VTK_POLY_LINE;
    const vtkIdType id = grid->InsertNextCell(type, static_cast<vtkIdType>(ids.size()), ids.data());
    element_cells.emplace_back(element.get(), id);
  }
  for (vtkIdType i = 0; i < n_nodes; ++i) grid->InsertNextCell(VTK_VERTEX, 1, &i);

  displacement->SetName("displacement");
  displacement->SetNumberOfComponents(3);
  displacement->SetNumberOfTuples(n_points);
  velocity->SetName("velocity");
  velocity->SetNumberOfComponents(3);
  velocity->SetNumberOfTuples(n_points);
  node_id->SetName("node_id");
  node_id->SetNumberOfComponents(1);
  node_id->SetNumberOfTuples(n_points);
  for (vtkIdType i = 0; i < n_points; ++i) node_id->SetValue(i, i < n_nodes ? static_cast<int>(i) : -1);
  grid->GetPointData()->AddArray(displacement);
  grid->GetPointData()->AddArray(velocity);
  grid->GetPointData()->AddArray(node_id);

  // Orientation of frame nodes (identity and zero for point nodes): the quaternion, the three
  // columns of R as vectors (ParaView's Glyph draws the triads) and the angular velocity.
  orientation->SetName("orientation");
  orientation->SetNumberOfComponents(4);
  orientation->SetNumberOfTuples(n_points);
  const std::array<const char*, 4> quaternion_components{"w", "x", "y", "z"};
  for (int c = 0; c < 4; ++c) orientation->SetComponentName(c, quaternion_components[static_cast<std::size_t>(c)]);
  grid->GetPointData()->AddArray(orientation);
  for (std::size_t k = 0; k < directors.size(); ++k) {
    const std::string name = "director_" + std::to_string(k + 1);
    directors[k]->SetName(name.c_str());
    directors[k]->SetNumberOfComponents(3);
    directors[k]->SetNumberOfTuples(n_points);
    grid->GetPointData()->AddArray(directors[k]);
  }
  angular_velocity->SetName("angular_velocity");
  angular_velocity->SetNumberOfComponents(3);
  angular_velocity->SetNumberOfTuples(n_points);
  grid->GetPointData()->AddArray(angular_velocity);

  // Element points (joints): no node of their own; their displacement is set per frame.
  for (const ElementPoint& p : element_points) {
    displacement->SetTuple3(p.point, 0, 0, 0);
    velocity->SetTuple3(p.point, 0, 0, 0);
    orientation->SetTuple4(p.point, 1, 0, 0, 0);
    for (int k = 0; k < 3; ++k)
      directors[static_cast<std::size_t>(k)]->SetTuple3(p.point, k == 0, k == 1, k == 2);
    angular_velocity->SetTuple3(p.point, 0, 0, 0);
  }

  build_constant_point_arrays();

  time->SetName("TIME");
  time->SetNumberOfComponents(1);
  time->SetNumberOfTuples(1);
  time->SetValue(0, 0.0);
  grid->GetFieldData()->AddArray(time);

  writer->SetInputData(grid);
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();  // raw binary
  writer->SetCompressorTypeToZLib();
  writer->SetHeaderTypeToUInt64();  // arrays over 4 GiB in large models
}

namespace {

/// Keeps the value one element sets for one scalar field in `cell_values`.
class ScalarCapture final : public fem::CellValueSink {
 public:
  explicit ScalarCapture(std::string_view field) : field_(field) {}
  void set(std::string_view field, double value) override {
    if (field == field_) value_ = value;
  }
  [[nodiscard]] double value() const { return value_; }

 private:
  std::string_view field_;
  double value_ = 0.0;
};

}  // namespace

void VtkWriter::Impl::build_constant_point_arrays() {
  const vtkIdType n_points = points->GetNumberOfPoints();
  // ParaView's Tube filter varies its radius by a point scalar only, so each node gets the
  // largest `radius` cell value of the elements whose cell passes through it (a beam node shared
  // by a thick and a thin beam is drawn with the thick one); nodes of no such element get 0.
  // Section radii do not change in time, so this is computed once from the initial state.
  section_radius->SetName("section_radius");
  section_radius->SetNumberOfComponents(1);
  section_radius->SetNumberOfTuples(n_points);
  section_radius->FillComponent(0, 0.0);
  for (const auto& element : model.elements) {
    ScalarCapture radius("radius");
    element->cell_values(model.initial_state, radius);
    if (!(radius.value() > 0.0)) continue;
    for (const fem::NodeId n : element->cell_nodes()) {
      const auto id = static_cast<vtkIdType>(n.index);
      section_radius->SetValue(id, std::max(section_radius->GetValue(id), radius.value()));
    }
  }
  grid->GetPointData()->AddArray(section_radius);

  // 1 where the point is a frame node (its orientation and directors are the node's triad), 0
  // for point nodes and element points (identity written): lets a renderer draw triads only
  // where they mean something.
  frame_node->SetName("frame_node");
  frame_node->SetNumberOfComponents(1);
  frame_node->SetNumberOfTuples(n_points);
  for (vtkIdType i = 0; i < n_points; ++i) {
    const bool is_frame = i < static_cast<vtkIdType>(model.nodes.size()) &&
                          model.nodes[static_cast<std::size_t>(i)].kind == fem::NodeKind::Frame;
    frame_node->SetValue(i, is_frame ? 1 : 0);
  }
  grid->GetPointData()->AddArray(frame_node);
}

vtkDoubleArray& VtkWriter::Impl::cell_field(std::string_view name, int components) {
  for (CellField& f : cell_fields)
    if (f.name == name) return *f.values;
  // First time any element sets this field: a new array, NaN everywhere.
  CellField f{std::string(name), vtkSmartPointer<vtkDoubleArray>::New()};
  f.values->SetName(f.name.c_str());
  f.values->SetNumberOfComponents(components);
  f.values->SetNumberOfTuples(grid->GetNumberOfCells());
  for (int c = 0; c < components; ++c) f.values->FillComponent(c, not_a_number);
  grid->GetCellData()->AddArray(f.values);
  cell_fields.push_back(std::move(f));
  return *cell_fields.back().values;
}

void VtkWriter::Impl::write(const solvers::Frame& frame) {
  const std::size_t n_nodes = model.nodes.size();
  if (frame.states.size() != n_nodes)
    throw std::invalid_argument("VTK output: frame at t = " + format_double(frame.t) + " has " +
                                std::to_string(frame.states.size()) + " node states, the model " +
                                std::to_string(n_nodes) + " nodes");

  for (std::size_t i = 0; i < n_nodes; ++i) {
    const fem::NodeState& s = frame.states[i];
    const fem::Vec3 u = s.position - model.nodes[i].reference_position;
    const auto id = static_cast<vtkIdType>(i);
    points->SetPoint(id, s.position.x(), s.position.y(), s.position.z());
    displacement->SetTuple3(id, u.x(), u.y(), u.z());
    velocity->SetTuple3(id, s.velocity.x(), s.velocity.y(), s.velocity.z());
    const bool frame_node = model.nodes[i].kind == fem::NodeKind::Frame;
    const fem::Quaternion q = frame_node ? s.orientation : fem::Quaternion::Identity();
    const fem::Vec3 omega = frame_node ? s.angular_velocity : fem::Vec3::Zero();
    orientation->SetTuple4(id, q.w(), q.x(), q.y(), q.z());
    const fem::Mat3 R = q.toRotationMatrix();
    for (int k = 0; k < 3; ++k) directors[static_cast<std::size_t>(k)]->SetTuple3(id, R(0, k), R(1, k), R(2, k));
    angular_velocity->SetTuple3(id, omega.x(), omega.y(), omega.z());
  }
  for (const ElementPoint& p : element_points) {
    const fem::Vec3 x = *p.element->output_point(frame.states);
    const fem::Vec3 u = x - p.x0;
    points->SetPoint(p.point, x.x(), x.y(), x.z());
    displacement->SetTuple3(p.point, u.x(), u.y(), u.z());
  }
  points->Modified();
  displacement->Modified();
  velocity->Modified();
  orientation->Modified();
  for (auto& d : directors) d->Modified();
  angular_velocity->Modified();

  for (CellField& f : cell_fields)
    for (int c = 0; c < f.values->GetNumberOfComponents(); ++c) f.values->FillComponent(c, not_a_number);
  for (const auto& [element, cell] : element_cells) {
    Sink sink(*this, cell);
    element->cell_values(frame.states, sink);
  }
  for (CellField& f : cell_fields) f.values->Modified();

  time->SetValue(0, frame.t);
  time->Modified();
  grid->Modified();

  // The .vtu goes under a temporary name first, so the index never lists a partial file.
  const std::string name = frame_file_name(first_index + static_cast<long>(entries.size()));
  const fs::path file = directory / name;
  fs::path tmp = file;
  tmp += ".tmp";
  writer->SetFileName(tmp.c_str());
  if (writer->Write() != 1)
    throw std::runtime_error(tmp.string() +
                             ": VTK could not write the frame at t = " + format_double(frame.t));
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec)
    throw std::runtime_error(file.string() + ": cannot rename " + tmp.filename().string() + " (" +
                             ec.message() + ")");

  entries.push_back({frame.t, name});
  replace_file_atomically(directory / index_file_name, pvd_text(entries));
}

namespace {

/// VTK computes array ranges for the file header with vtkSMPTools, whose default std::thread
/// backend starts threads for every array of every frame: 20 ms per frame on a 15-node model,
/// more than its solve. A frame's arrays are small next to that, and the cores belong to the
/// solver, so VTK runs sequentially unless the user chose a backend. VTK reads the variable once,
/// when its SMP layer first starts, which is after this in `catena run`. (vtkSMPTools::LocalScope
/// would be the direct way, but VTK 9.1's vtkSMPTools.h does not compile as C++20.)
bool choose_sequential_vtk_smp() {
  return setenv("VTK_SMP_BACKEND_IN_USE", "Sequential", /*overwrite=*/0) == 0;
}

}  // namespace

VtkWriter::VtkWriter(fs::path directory, const fem::Model& model)
    : impl_(std::make_unique<Impl>(std::move(directory), model)) {
  static const bool sequential = choose_sequential_vtk_smp();
  (void)sequential;
  create_output_directory(impl_->directory);
  impl_->build_topology();
}

VtkWriter::~VtkWriter() = default;
VtkWriter::VtkWriter(VtkWriter&&) noexcept = default;
VtkWriter& VtkWriter::operator=(VtkWriter&&) noexcept = default;

void VtkWriter::on_frame(const solvers::Frame& frame) { impl_->write(frame); }

long VtkWriter::n_frames() const { return impl_->first_index + static_cast<long>(impl_->entries.size()); }

namespace {

/// The value of attribute `name` in one XML element's text, if present.
std::optional<std::string> xml_attribute(std::string_view element, std::string_view name) {
  const std::string key = " " + std::string(name) + "=\"";
  const std::size_t at = element.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const std::size_t first = at + key.size();
  const std::size_t last = element.find('"', first);
  if (last == std::string_view::npos) return std::nullopt;
  return std::string(element.substr(first, last - first));
}

}  // namespace

void VtkWriter::resume(long frames, double last_frame_t) {
  Impl& m = *impl_;
  const fs::path index = m.directory / index_file_name;
  std::error_code ec;
  if (!fs::exists(index, ec)) {
    // A new directory: the continuation only, numbered on from the run it continues.
    m.entries.clear();
    m.first_index = frames;
    return;
  }
  std::ifstream in(index);
  std::stringstream text;
  text << in.rdbuf();
  const std::string pvd = text.str();
  std::vector<PvdEntry> entries;
  for (std::size_t at = pvd.find("<DataSet"); at != std::string::npos; at = pvd.find("<DataSet", at + 1)) {
    const std::string_view element = std::string_view(pvd).substr(at, pvd.find('>', at) - at);
    const auto t = xml_attribute(element, "timestep");
    const auto file = xml_attribute(element, "file");
    if (!t || !file) throw std::runtime_error(index.string() + ": a DataSet without timestep or file; cannot continue it");
    entries.push_back({std::strtod(t->c_str(), nullptr), *file});
  }
  if (static_cast<long>(entries.size()) < frames || frames < 1 || entries[static_cast<std::size_t>(frames - 1)].t != last_frame_t)
    throw std::runtime_error(index.string() + ": lists " + std::to_string(entries.size()) +
                             " frames, the checkpoint expects at least " + std::to_string(frames) + " with the last at t = " +
                             format_double(last_frame_t) + "; these are not the results of the run the checkpoint "
                             "belongs to (write the continuation to another --out directory)");
  // Frames after the checkpoint belong to the results the continuation replaces.
  for (std::size_t i = static_cast<std::size_t>(frames); i < entries.size(); ++i) fs::remove(m.directory / entries[i].file, ec);
  entries.resize(static_cast<std::size_t>(frames));
  m.entries = std::move(entries);
  m.first_index = 0;
  replace_file_atomically(index, pvd_text(m.entries));
}

const fs::path& VtkWriter::directory() const { return impl_->directory; }

std::string VtkWriter::frame_file_name(long index) {
  char name[32];
  std::snprintf(name, sizeof name, "results_%05ld.vtu", index);
  return name;
}

}  // namespace catena::io
