#include "io/vtk_writer.hpp"

#include "io/output_directory.hpp"
#include "io/pvd_index.hpp"

#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataSetAttributes.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkObjectFactory.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPUnstructuredGridWriter.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <optional>
#include <limits>
#include <stdexcept>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace catena::io {

/// Grids (pieces) with fewer points are written uncompressed (VtkWriter::Impl's constructor).
constexpr vtkIdType compressed_from_points = 1000;

namespace fs = std::filesystem;

namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

/// Writes the .pvtu of a frame whose pieces the ranks have written themselves (rank 0 only, no
/// MPI inside VTK). vtkXMLPUnstructuredGridWriter writes the summary for the pieces it marks as
/// written in WritePieceInternal, after writing them itself; here the pieces exist already (each
/// rank wrote its own, atomically, and the writer would write rank 0's grid as every piece), so
/// only the marks are set. Its arrays and field data come from rank 0's piece, which has every
/// array. This avoids a vtkMPIController, whose collective summary (a Reduce after the piece is
/// written) hangs every rank when one rank's piece fails.
class PieceIndexWriter final : public vtkXMLPUnstructuredGridWriter {
 public:
  static PieceIndexWriter* New();
  vtkTypeMacro(PieceIndexWriter, vtkXMLPUnstructuredGridWriter)
  /// 1 for each rank that wrote a piece of the frame.
  std::vector<unsigned char> pieces_written;

 protected:
  PieceIndexWriter() = default;
  ~PieceIndexWriter() override = default;
  int WritePieceInternal() override {
    for (int i = 0; i < this->NumberOfPieces; ++i)
      this->PieceWrittenFlags[i] = pieces_written.at(static_cast<std::size_t>(i));
    return 1;
  }
};
vtkStandardNewMacro(PieceIndexWriter)

/// Throws on every rank of `comm` when `error` is not empty on any of them (collective), with the
/// local message where there is one.
void throw_if_any_failed(MPI_Comm comm, const std::string& error, const std::string& elsewhere) {
  int ok = error.empty() ? 1 : 0, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
  if (all_ok == 0) throw std::runtime_error(error.empty() ? elsewhere : error);
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

  Impl(fs::path dir, const fem::Model& m, int rank_in_run)
      : directory(std::move(dir)), model(m), rank(rank_in_run), index(directory / index_file_name, rank == 0) {}
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  fs::path directory;
  const fem::Model& model;
  /// MPI: the ranks writing pieces (size > 1); serial output otherwise (comm unused).
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int size = 1;
  PvdIndex index;  ///< results.pvd (rank 0 writes it; every rank numbers its frames by it)
  [[nodiscard]] bool parallel() const { return size > 1; }
  /// Which elements' cells this piece holds and which nodes' vertex cells (all in serial).
  std::vector<char> element_in_piece;
  std::vector<char> node_owned;
  /// The nodes that are points of this piece, in model order (point i is node piece_nodes[i]).
  std::vector<std::size_t> piece_nodes;
  std::vector<vtkIdType> node_point;  ///< node index -> point id, -1 when not in this piece
  vtkNew<vtkUnsignedCharArray> ghosts;  ///< MPI only: DUPLICATEPOINT on nodes other ranks own
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
  bool cell_fields_complete = false;  ///< after create_cell_fields: under MPI no new field may appear
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

  void select_piece(std::span<const std::size_t> local_elements);
  void build_topology();
  void build_constant_point_arrays();
  void create_cell_fields();
  vtkDoubleArray& cell_field(std::string_view name, int components);
  void write(const solvers::Frame& frame);
  /// Writes `grid` to `file`; returns the error, empty if none.
  std::string write_grid(const fs::path& file, double t);
  void write_parallel(double t, long frame_index);

};

void VtkWriter::Impl::select_piece(std::span<const std::size_t> local_elements) {
  const std::size_t n_elements = model.elements.size(), n_nodes = model.nodes.size();
  element_in_piece.assign(n_elements, parallel() ? 0 : 1);
  node_owned.assign(n_nodes, parallel() ? 0 : 1);
  if (!parallel()) return;
  // Every rank learns which rank evaluates each element (-1: none yet), to give each node to the
  // rank of the first element touching it: the same answer on every rank, without communication
  // per frame.
  std::vector<int> mine(n_elements, -1), element_rank(n_elements, -1);
  std::optional<std::size_t> outside;
  for (const std::size_t e : local_elements) {
    if (e >= n_elements) {
      outside = e;
      continue;
    }
    mine[e] = rank;
    element_in_piece[e] = 1;
  }
  // Collective: every rank takes part before any throws.
  MPI_Allreduce(mine.data(), element_rank.data(), static_cast<int>(n_elements), MPI_INT, MPI_MAX, comm);
  if (outside)
    throw std::invalid_argument("VTK output: local element " + std::to_string(*outside) + " outside the model's " +
                                std::to_string(n_elements) + " elements");
  std::vector<std::int32_t> node_of_block(model.registry.n_blocks(), -1);
  for (std::size_t n = 0; n < n_nodes; ++n) {
    const fem::Node& node = model.nodes[n];
    if (node.displacement.valid()) node_of_block[static_cast<std::size_t>(node.displacement.index)] = static_cast<std::int32_t>(n);
    if (node.rotation.valid()) node_of_block[static_cast<std::size_t>(node.rotation.index)] = static_cast<std::int32_t>(n);
  }
  std::vector<int> node_rank(n_nodes, -1);
  for (std::size_t e = 0; e < n_elements && e < model.element_couplings.size(); ++e) {
    const auto [begin, end] = model.element_couplings[e];
    for (std::size_t c = begin; c < end; ++c)
      for (const fem::BlockId b : model.registry.couplings()[c]) {
        const std::int32_t n = node_of_block[static_cast<std::size_t>(b.index)];
        if (n >= 0 && node_rank[static_cast<std::size_t>(n)] < 0)
          node_rank[static_cast<std::size_t>(n)] = std::max(element_rank[e], 0);
      }
  }
  for (std::size_t n = 0; n < n_nodes; ++n) node_owned[n] = (node_rank[n] < 0 ? 0 : node_rank[n]) == rank;
}

void VtkWriter::Impl::build_topology() {
  const auto n_nodes = static_cast<vtkIdType>(model.nodes.size());
  // Cell nodes are checked for every element (each rank the same), before any is used.
  for (const auto& element : model.elements)
    for (const fem::NodeId n : element->cell_nodes())
      if (n.index < 0 || n.index >= n_nodes)
        throw std::invalid_argument("element '" + element->name() + "': cell node index " +
                                    std::to_string(n.index) + " outside the model's " +
                                    std::to_string(n_nodes) + " nodes; cannot write VTK output");
  // Points: the nodes this piece owns or its element cells pass through (all in serial), in model
  // order; then the output points of its elements.
  std::vector<char> is_point(node_owned.begin(), node_owned.end());
  std::vector<std::optional<fem::Vec3>> output_points(model.elements.size());
  for (std::size_t e = 0; e < model.elements.size(); ++e) {
    if (!element_in_piece[e]) continue;
    output_points[e] = model.elements[e]->output_point(model.initial_state);
    if (!output_points[e])
      for (const fem::NodeId n : model.elements[e]->cell_nodes()) is_point[static_cast<std::size_t>(n.index)] = 1;
  }
  node_point.assign(model.nodes.size(), -1);
  for (std::size_t n = 0; n < model.nodes.size(); ++n)
    if (is_point[n]) {
      node_point[n] = static_cast<vtkIdType>(piece_nodes.size());
      piece_nodes.push_back(n);
    }
  auto n_points = static_cast<vtkIdType>(piece_nodes.size());
  const vtkIdType n_node_points = n_points;
  for (std::size_t e = 0; e < model.elements.size(); ++e)
    if (output_points[e]) element_points.push_back({model.elements[e].get(), n_points++, *output_points[e]});
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(n_points);
  for (vtkIdType i = 0; i < n_node_points; ++i) {
    const fem::Vec3& x = model.nodes[piece_nodes[static_cast<std::size_t>(i)]].reference_position;
    points->SetPoint(i, x.x(), x.y(), x.z());
  }
  for (const ElementPoint& p : element_points) points->SetPoint(p.point, p.x0.x(), p.x0.y(), p.x0.z());
  grid->SetPoints(points);

  std::vector<vtkIdType> ids;
  std::size_t next_point = 0;
  for (std::size_t e = 0; e < model.elements.size(); ++e) {
    if (!element_in_piece[e]) continue;
    const fem::Element* element = model.elements[e].get();
    if (next_point < element_points.size() && element_points[next_point].element == element) {
      const vtkIdType id = grid->InsertNextCell(VTK_VERTEX, 1, &element_points[next_point++].point);
      element_cells.emplace_back(element, id);
      continue;
    }
    const auto cell = element->cell_nodes();
    if (cell.empty()) continue;
    ids.clear();
    for (const fem::NodeId n : cell) ids.push_back(node_point[static_cast<std::size_t>(n.index)]);
    const int type = ids.size() == 1 ? VTK_VERTEX : ids.size() == 2 ? VTK_LINE : VTK_POLY_LINE;
    const vtkIdType id = grid->InsertNextCell(type, static_cast<vtkIdType>(ids.size()), ids.data());
    element_cells.emplace_back(element, id);
  }
  for (std::size_t n = 0; n < model.nodes.size(); ++n)
    if (node_owned[n]) grid->InsertNextCell(VTK_VERTEX, 1, &node_point[n]);

  displacement->SetName("displacement");
  displacement->SetNumberOfComponents(3);
  displacement->SetNumberOfTuples(n_points);
  velocity->SetName("velocity");
  velocity->SetNumberOfComponents(3);
  velocity->SetNumberOfTuples(n_points);
  node_id->SetName("node_id");
  node_id->SetNumberOfComponents(1);
  node_id->SetNumberOfTuples(n_points);
  for (vtkIdType i = 0; i < n_points; ++i)
    node_id->SetValue(i, i < n_node_points ? static_cast<int>(piece_nodes[static_cast<std::size_t>(i)]) : -1);
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
  if (parallel()) {
    // VTK's ghost array: a node's copies in pieces that do not own it are duplicates.
    ghosts->SetName(vtkDataSetAttributes::GhostArrayName());
    ghosts->SetNumberOfComponents(1);
    ghosts->SetNumberOfTuples(n_points);
    ghosts->FillComponent(0, 0);
    for (vtkIdType i = 0; i < n_node_points; ++i)
      if (!node_owned[piece_nodes[static_cast<std::size_t>(i)]]) ghosts->SetValue(i, vtkDataSetAttributes::DUPLICATEPOINT);
    grid->GetPointData()->AddArray(ghosts);
  }
  create_cell_fields();

  time->SetName("TIME");
  time->SetNumberOfComponents(1);
  time->SetNumberOfTuples(1);
  time->SetValue(0, 0.0);
  grid->GetFieldData()->AddArray(time);

  writer->SetInputData(grid);
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();  // raw binary
  // Compressed from a thousand points on. Below, zlib costs more time than the bytes it saves:
  // each array's deflate stream sets up 256 KiB of state, 6 M instructions for a frame of 30
  // points, 4 % of a one-step run, where the frame's raw arrays take a few kilobytes.
  if (n_points >= compressed_from_points)
    writer->SetCompressorTypeToZLib();
  else
    writer->SetCompressorTypeToNone();
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
      const vtkIdType id = node_point[static_cast<std::size_t>(n.index)];
      if (id >= 0) section_radius->SetValue(id, std::max(section_radius->GetValue(id), radius.value()));
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
    const auto k = static_cast<std::size_t>(i);
    const bool is_frame = k < piece_nodes.size() && model.nodes[piece_nodes[k]].kind == fem::NodeKind::Frame;
    frame_node->SetValue(i, is_frame ? 1 : 0);
  }
  grid->GetPointData()->AddArray(frame_node);
}

namespace {

/// Records the fields an element sets in `cell_values` (name and number of components), in order.
class FieldCollector final : public fem::CellValueSink {
 public:
  explicit FieldCollector(std::vector<std::pair<std::string, int>>& fields) : fields_(fields) {}
  void set(std::string_view field, double) override { add(field, 1); }
  void set_vector(std::string_view field, const fem::Vec3&) override { add(field, 3); }

 private:
  void add(std::string_view field, int components) {
    for (const auto& f : fields_)
      if (f.first == field) return;
    fields_.emplace_back(std::string(field), components);
  }
  std::vector<std::pair<std::string, int>>& fields_;
};

}  // namespace

void VtkWriter::Impl::create_cell_fields() {
  // Every field any element with a cell sets, in the order the first frame meets them (element
  // order): every piece gets the same arrays, also those its own elements do not set (NaN), which
  // the .pvtu needs. Elements set their fields unconditionally, so the initial state finds them all.
  std::vector<std::pair<std::string, int>> fields;
  FieldCollector collector(fields);
  for (const auto& element : model.elements)
    if (element->output_point(model.initial_state) || !element->cell_nodes().empty())
      element->cell_values(model.initial_state, collector);
  for (const auto& [name, components] : fields) cell_field(name, components);
  cell_fields_complete = true;
}

vtkDoubleArray& VtkWriter::Impl::cell_field(std::string_view name, int components) {
  for (CellField& f : cell_fields)
    if (f.name == name) return *f.values;
  // The pieces of a .pvtu must have the same arrays: no field may appear later on one rank only.
  if (parallel() && cell_fields_complete)
    throw std::logic_error("VTK output: cell field '" + std::string(name) +
                           "' not set at the initial state; every rank needs every field from the start");
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

  for (std::size_t k = 0; k < piece_nodes.size(); ++k) {
    const std::size_t i = piece_nodes[k];
    const fem::NodeState& s = frame.states[i];
    const fem::Vec3 u = s.position - model.nodes[i].reference_position;
    const auto id = static_cast<vtkIdType>(k);
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

  const long frame_index = index.n_frames();
  if (parallel()) {
    write_parallel(frame.t, frame_index);
    return;
  }
  // The index lists the .vtu only once it is complete.
  const std::string name = frame_file_name(frame_index);
  if (std::string error = write_grid(directory / name, frame.t); !error.empty()) throw std::runtime_error(error);
  index.add(frame.t, name);
}

std::string VtkWriter::Impl::write_grid(const fs::path& file, double t) {
  // Into memory, then one write: VTK's file stream flushes after every array and piece header
  // (a fifth of a small frame's cost in write system calls). No temporary name: the index lists
  // a frame only once its file is complete, and a restart overwrites one it does not list.
  writer->WriteToOutputStringOn();
  if (writer->Write() != 1) return file.string() + ": VTK could not write the frame at t = " + format_double(t);
  const std::string content = writer->GetOutputString();
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
  out.close();
  if (!out) return file.string() + ": write failed (disk full?)";
  return {};
}

void VtkWriter::Impl::write_parallel(double t, long frame_index) {
  // 1. Every rank writes its piece (atomically); all learn whether every piece exists.
  const unsigned char has_piece = grid->GetNumberOfPoints() > 0 || grid->GetNumberOfCells() > 0 ? 1 : 0;
  std::string error;
  if (has_piece) {
    try {
      error = write_grid(directory / piece_file_name(frame_index, rank), t);
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  throw_if_any_failed(comm, error,
                      "VTK output: another rank could not write its piece of the frame at t = " + format_double(t));
  // 2. Rank 0 writes the .pvtu listing the pieces written, then the index: ParaView never sees
  //    a .pvd entry before its .pvtu and all its pieces exist.
  std::vector<unsigned char> written(static_cast<std::size_t>(size), 0);
  MPI_Gather(&has_piece, 1, MPI_UNSIGNED_CHAR, written.data(), 1, MPI_UNSIGNED_CHAR, 0, comm);
  const std::string name = parallel_frame_file_name(frame_index);
  if (rank == 0) {
    try {
      vtkNew<PieceIndexWriter> summary;
      summary->pieces_written = written;
      summary->SetController(nullptr);  // no MPI inside VTK: the pieces are marked above
      summary->SetInputData(grid);
      summary->SetNumberOfPieces(size);
      summary->SetStartPiece(0);
      summary->SetEndPiece(0);
      summary->SetDataModeToAppended();
      summary->SetHeaderTypeToUInt64();
      // The file name only names the pieces (results_NNNNN_<rank>.vtu); the text goes to a
      // string so that the .pvtu is replaced atomically like every other file.
      summary->SetFileName((directory / name).c_str());
      summary->WriteToOutputStringOn();
      if (summary->Write() != 1)
        error = (directory / name).string() + ": VTK could not write the frame at t = " + format_double(t);
      else
        replace_file_atomically(directory / name, summary->GetOutputString());
      if (error.empty()) {
        index.add(t, name);
      }
    } catch (const std::exception& e) {
      error = e.what();
    }
  } else {
    index.add(t, name);  // the numbering only: rank 0 writes the index
  }
  int ok = error.empty() ? 1 : 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  if (!ok)
    throw std::runtime_error(error.empty() ? "VTK output: rank 0 could not write " + name : error);
}

namespace {

/// VTK computes array ranges for the file header with vtkSMPTools, whose default std::thread
/// backend starts threads for every array of every frame: 20 ms per frame on a 15-node model,
/// more than its solve. A frame's arrays are small next to that, and the cores belong to the
/// solver, so VTK runs sequentially unless the user chose a backend. VTK reads the variable once,
/// when its SMP layer first starts, which is after this in `catena run`. (vtkSMPTools::LocalScope
/// would be the direct way, but VTK 9.1's vtkSMPTools.h does not compile as C++20.)
int rank_in(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

bool choose_sequential_vtk_smp() {
  return setenv("VTK_SMP_BACKEND_IN_USE", "Sequential", /*overwrite=*/0) == 0;
}

}  // namespace

VtkWriter::VtkWriter(fs::path directory, const fem::Model& model)
    : impl_(std::make_unique<Impl>(std::move(directory), model, 0)) {
  static const bool sequential = choose_sequential_vtk_smp();
  (void)sequential;
  create_output_directory(impl_->directory);
  impl_->select_piece({});
  impl_->build_topology();
}

VtkWriter::VtkWriter(fs::path directory, const fem::Model& model, MPI_Comm comm,
                     std::span<const std::size_t> local_elements)
    : impl_(std::make_unique<Impl>(std::move(directory), model, rank_in(comm))) {
  static const bool sequential = choose_sequential_vtk_smp();
  (void)sequential;
  Impl& m = *impl_;
  MPI_Comm_size(comm, &m.size);
  m.comm = comm;
  // Each stage ends with every rank knowing whether all succeeded, so that no rank waits in a
  // collective another one has left; the rank that failed rethrows its own exception.
  auto stage = [&](const auto& work, const std::string& elsewhere) {
    std::exception_ptr failure;
    try {
      work();
    } catch (const std::exception&) {
      failure = std::current_exception();
    }
    if (m.parallel()) {
      int ok = failure ? 0 : 1, all_ok = 0;
      MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
      if (!all_ok && !failure) throw std::runtime_error(elsewhere);
    }
    if (failure) std::rethrow_exception(failure);
  };
  // Rank 0 creates the directory before any rank writes into it.
  stage([&] { if (m.rank == 0) create_output_directory(m.directory); },
        m.directory.string() + ": rank 0 could not create the output directory");
  stage([&] {
          m.select_piece(local_elements);
          m.build_topology();
        },
        m.directory.string() + ": VTK output could not be set up on another rank");
}

VtkWriter::~VtkWriter() = default;
VtkWriter::VtkWriter(VtkWriter&&) noexcept = default;
VtkWriter& VtkWriter::operator=(VtkWriter&&) noexcept = default;

void VtkWriter::on_frame(const solvers::Frame& frame) {
  if (frame.vtk) impl_->write(frame);
}

void VtkWriter::on_checkpoint(const solvers::IntegratorState&) { flush_index(); }

void VtkWriter::flush_index() {
  impl_->index.flush();
}

long VtkWriter::n_frames() const { return impl_->index.n_frames(); }

void VtkWriter::resume(long frames, double last_frame_t) {
  Impl& m = *impl_;
  std::error_code ec;
  // A new directory gets the continuation only, numbered on from the run it continues; under MPI
  // the ranks other than 0 only number their pieces (frames continue at `frames` in either case).
  if (m.rank != 0 || !fs::exists(m.directory / index_file_name, ec))
    m.index.continue_from(frames);
  else
    m.index.cut_back_to(frames, last_frame_t);
}

std::string VtkWriter::frame_file_name(long index) {
  char name[32];
  std::snprintf(name, sizeof name, "results_%05ld.vtu", index);
  return name;
}

std::string VtkWriter::parallel_frame_file_name(long index) {
  char name[32];
  std::snprintf(name, sizeof name, "results_%05ld.pvtu", index);
  return name;
}

// vtkXMLPDataObjectWriter's name for piece `rank` of results_NNNNN.pvtu (<base>_<piece>.vtu).
std::string VtkWriter::piece_file_name(long index, int rank) {
  char name[48];
  std::snprintf(name, sizeof name, "results_%05ld_%d.vtu", index, rank);
  return name;
}

}  // namespace catena::io
