#include "io/vtk_writer.hpp"

#include "io/output_directory.hpp"
#include "io/pvd_index.hpp"
#include "io/vtk_module.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <optional>
#include <stdexcept>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace catena::io {

namespace fs = std::filesystem;

namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

/// Throws on every rank of `comm` when `error` is not empty on any of them (collective), with the
/// local message where there is one.
void throw_if_any_failed(MPI_Comm comm, const std::string& error, const std::string& elsewhere) {
  int ok = error.empty() ? 1 : 0, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
  if (all_ok == 0) throw OutputError(error.empty() ? elsewhere : error);
}

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

struct VtkWriter::Impl {
  /// Receives `Element::cell_values` for one cell.
  class Sink final : public fem::CellValueSink {
   public:
    Sink(Impl& impl, std::size_t cell) : impl_(impl), cell_(cell) {}
    void set(std::string_view field, double value) override { impl_.cell_field(field, 1)[cell_] = value; }
    void set_vector(std::string_view field, const fem::Vec3& v) override {
      double* values = impl_.cell_field(field, 3) + 3 * cell_;
      for (int c = 0; c < 3; ++c) values[c] = v[c];
    }

   private:
    Impl& impl_;
    std::size_t cell_;
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
  CellValueSource* cell_values = nullptr;  ///< null: the elements' own at the frame's states
  [[nodiscard]] bool parallel() const { return size > 1; }
  /// Which elements' cells this piece holds and which nodes' vertex cells (all in serial).
  std::vector<char> element_in_piece;
  std::vector<char> node_owned;
  /// The nodes that are points of this piece, in model order (point i is node piece_nodes[i]).
  std::vector<std::size_t> piece_nodes;
  std::vector<std::int64_t> node_point;  ///< node index -> point id, -1 when not in this piece
  /// Elements that own a cell, with its id (element cells come first, in element order).
  std::vector<std::pair<const fem::Element*, std::size_t>> element_cells;
  /// Elements with an output point of their own (joints), with its point id (after the nodes)
  /// and its position at t = 0.
  struct ElementPoint {
    const fem::Element* element;
    std::size_t point;
    fem::Vec3 x0;
  };
  std::vector<ElementPoint> element_points;
  std::size_t n_cells = 0;
  /// The cell-data fields some element sets (1 component, or 3 for a vector), in the encoder's
  /// order, filled with NaN before each frame.
  std::vector<std::pair<std::string, int>> cell_fields;
  bool cell_fields_complete = false;  ///< after the layout: under MPI no new field may appear
  std::unique_ptr<vtk::GridEncoder> grid;

  void select_piece(std::span<const std::size_t> local_elements);
  /// The piece's points, cells and constant arrays; then `grid`, from the VTK module.
  [[nodiscard]] vtk::GridLayout layout();
  void create_grid();
  double* cell_field(std::string_view name, int components);
  void write(const solvers::Frame& frame);
  /// Writes the grid's current values to `file`; returns the error, empty if none.
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

vtk::GridLayout VtkWriter::Impl::layout() {
  const auto n_nodes = static_cast<std::int64_t>(model.nodes.size());
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
      node_point[n] = static_cast<std::int64_t>(piece_nodes.size());
      piece_nodes.push_back(n);
    }
  std::size_t n_points = piece_nodes.size();
  for (std::size_t e = 0; e < model.elements.size(); ++e)
    if (output_points[e]) element_points.push_back({model.elements[e].get(), n_points++, *output_points[e]});

  vtk::GridLayout g;
  g.reference_points.reserve(3 * n_points);
  for (const std::size_t n : piece_nodes)
    for (int c = 0; c < 3; ++c) g.reference_points.push_back(model.nodes[n].reference_position[c]);
  for (const ElementPoint& p : element_points)
    for (int c = 0; c < 3; ++c) g.reference_points.push_back(p.x0[c]);
  g.node_id.assign(n_points, -1);
  for (std::size_t i = 0; i < piece_nodes.size(); ++i) g.node_id[i] = static_cast<int>(piece_nodes[i]);

  auto add_cell = [&](vtk::CellShape shape, std::span<const std::int64_t> ids) {
    if (g.cell_offsets.empty()) g.cell_offsets.push_back(0);
    g.cell_shapes.push_back(shape);
    g.cell_points.insert(g.cell_points.end(), ids.begin(), ids.end());
    g.cell_offsets.push_back(static_cast<std::int64_t>(g.cell_points.size()));
    return g.cell_shapes.size() - 1;
  };
  std::vector<std::int64_t> ids;
  std::size_t next_point = 0;
  for (std::size_t e = 0; e < model.elements.size(); ++e) {
    if (!element_in_piece[e]) continue;
    const fem::Element* element = model.elements[e].get();
    if (next_point < element_points.size() && element_points[next_point].element == element) {
      const auto point = static_cast<std::int64_t>(element_points[next_point++].point);
      element_cells.emplace_back(element, add_cell(vtk::CellShape::Vertex, {&point, 1}));
      continue;
    }
    const auto cell = element->cell_nodes();
    if (cell.empty()) continue;
    ids.clear();
    for (const fem::NodeId n : cell) ids.push_back(node_point[static_cast<std::size_t>(n.index)]);
    const auto shape = ids.size() == 1 ? vtk::CellShape::Vertex
                                       : ids.size() == 2 ? vtk::CellShape::Line : vtk::CellShape::PolyLine;
    element_cells.emplace_back(element, add_cell(shape, ids));
  }
  for (std::size_t n = 0; n < model.nodes.size(); ++n)
    if (node_owned[n]) add_cell(vtk::CellShape::Vertex, {&node_point[n], 1});
  if (g.cell_offsets.empty()) g.cell_offsets.push_back(0);
  n_cells = g.n_cells();

  // ParaView's Tube filter varies its radius by a point scalar only, so each node gets the
  // largest `radius` cell value of the elements whose cell passes through it (a beam node shared
  // by a thick and a thin beam is drawn with the thick one); nodes of no such element get 0.
  // Section radii do not change in time, so this is computed once from the initial state.
  g.section_radius.assign(n_points, 0.0);
  for (const auto& element : model.elements) {
    ScalarCapture radius("radius");
    element->cell_values(model.initial_state, radius);
    if (!(radius.value() > 0.0)) continue;
    for (const fem::NodeId n : element->cell_nodes()) {
      const std::int64_t id = node_point[static_cast<std::size_t>(n.index)];
      if (id >= 0) {
        double& r = g.section_radius[static_cast<std::size_t>(id)];
        r = std::max(r, radius.value());
      }
    }
  }
  // 1 where the point is a frame node (its orientation and directors are the node's triad), 0
  // for point nodes and element points (identity written): lets a renderer draw triads only
  // where they mean something.
  g.frame_node.assign(n_points, 0);
  for (std::size_t i = 0; i < piece_nodes.size(); ++i)
    g.frame_node[i] = model.nodes[piece_nodes[i]].kind == fem::NodeKind::Frame ? 1 : 0;
  // VTK's ghost array: a node's copies in pieces that do not own it are duplicates.
  if (parallel()) {
    g.owned_elsewhere.assign(n_points, 0);
    for (std::size_t i = 0; i < piece_nodes.size(); ++i) g.owned_elsewhere[i] = node_owned[piece_nodes[i]] ? 0 : 1;
  }
  // Every field any element with a cell sets, in the order the first frame meets them (element
  // order): every piece gets the same arrays, also those its own elements do not set (NaN), which
  // the .pvtu needs. Elements set their fields unconditionally, so the initial state finds them all.
  FieldCollector collector(g.cell_fields);
  for (const auto& element : model.elements)
    if (element->output_point(model.initial_state) || !element->cell_nodes().empty())
      element->cell_values(model.initial_state, collector);
  cell_fields = g.cell_fields;
  cell_fields_complete = true;
  if (cell_values) g.field_strings.emplace_back("cell_data", cell_values->description());
  g.compressed = n_points >= vtk::compressed_from_points;
  return g;
}

void VtkWriter::Impl::create_grid() {
  grid = vtk::create_grid_encoder(layout());
  // Element points (joints) have no node of their own: identity axes, no velocity; their
  // position and displacement are set per frame.
  double* orientation = grid->point_array(vtk::PointArray::Orientation);
  const std::array<double*, 3> directors{grid->point_array(vtk::PointArray::Director1),
                                         grid->point_array(vtk::PointArray::Director2),
                                         grid->point_array(vtk::PointArray::Director3)};
  for (const ElementPoint& p : element_points) {
    orientation[4 * p.point] = 1.0;
    for (std::size_t k = 0; k < 3; ++k) directors[k][3 * p.point + k] = 1.0;
  }
}

double* VtkWriter::Impl::cell_field(std::string_view name, int components) {
  for (std::size_t k = 0; k < cell_fields.size(); ++k)
    if (cell_fields[k].first == name) return grid->cell_field(k);
  // The pieces of a .pvtu must have the same arrays: no field may appear later on one rank only.
  if (parallel() && cell_fields_complete)
    throw std::logic_error("VTK output: cell field '" + std::string(name) +
                           "' not set at the initial state; every rank needs every field from the start");
  // First time any element sets this field: a new array, NaN everywhere.
  cell_fields.emplace_back(std::string(name), components);
  return grid->cell_field(grid->add_cell_field(cell_fields.back().first, components));
}

void VtkWriter::Impl::write(const solvers::Frame& frame) {
  const std::size_t n_nodes = model.nodes.size();
  if (frame.states.size() != n_nodes)
    throw std::invalid_argument("VTK output: frame at t = " + format_double(frame.t) + " has " +
                                std::to_string(frame.states.size()) + " node states, the model " +
                                std::to_string(n_nodes) + " nodes");
  double* const x = grid->points();
  double* const displacement = grid->point_array(vtk::PointArray::Displacement);
  double* const velocity = grid->point_array(vtk::PointArray::Velocity);
  double* const orientation = grid->point_array(vtk::PointArray::Orientation);
  const std::array<double*, 3> directors{grid->point_array(vtk::PointArray::Director1),
                                         grid->point_array(vtk::PointArray::Director2),
                                         grid->point_array(vtk::PointArray::Director3)};
  double* const angular_velocity = grid->point_array(vtk::PointArray::AngularVelocity);
  auto set3 = [](double* array, std::size_t point, const fem::Vec3& v) {
    for (int c = 0; c < 3; ++c) array[3 * point + static_cast<std::size_t>(c)] = v[c];
  };
  for (std::size_t k = 0; k < piece_nodes.size(); ++k) {
    const std::size_t i = piece_nodes[k];
    const fem::NodeState& s = frame.states[i];
    set3(x, k, s.position);
    set3(displacement, k, s.position - model.nodes[i].reference_position);
    set3(velocity, k, s.velocity);
    const bool frame_node = model.nodes[i].kind == fem::NodeKind::Frame;
    const fem::Quaternion q = frame_node ? s.orientation : fem::Quaternion::Identity();
    const std::array<double, 4> wxyz{q.w(), q.x(), q.y(), q.z()};
    std::copy(wxyz.begin(), wxyz.end(), orientation + 4 * k);
    const fem::Mat3 R = q.toRotationMatrix();
    for (int c = 0; c < 3; ++c) set3(directors[static_cast<std::size_t>(c)], k, R.col(c));
    set3(angular_velocity, k, frame_node ? s.angular_velocity : fem::Vec3::Zero());
  }
  for (const ElementPoint& p : element_points) {
    const fem::Vec3 position = *p.element->output_point(frame.states);
    set3(x, p.point, position);
    set3(displacement, p.point, position - p.x0);
  }
  for (std::size_t k = 0; k < cell_fields.size(); ++k) {
    double* values = grid->cell_field(k);
    std::fill(values, values + n_cells * static_cast<std::size_t>(cell_fields[k].second), not_a_number);
  }
  if (cell_values) cell_values->set_frame(frame.states);
  for (const auto& [element, cell] : element_cells) {
    Sink sink(*this, cell);
    if (cell_values)
      cell_values->element_values(*element, sink);
    else
      element->cell_values(frame.states, sink);
  }

  const long frame_index = index.n_frames();
  if (parallel()) {
    write_parallel(frame.t, frame_index);
    return;
  }
  // The index lists the .vtu only once it is complete.
  const std::string name = frame_file_name(frame_index);
  if (std::string error = write_grid(directory / name, frame.t); !error.empty()) throw OutputError(error);
  index.add(frame.t, name);
}

std::string VtkWriter::Impl::write_grid(const fs::path& file, double t) { return vtk::write_grid(*grid, file, t); }

void VtkWriter::Impl::write_parallel(double t, long frame_index) {
  // 1. Every rank writes its piece (atomically); all learn whether every piece exists.
  const unsigned char has_piece = !piece_nodes.empty() || !element_points.empty() || n_cells > 0 ? 1 : 0;
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
      // The .pvtu is replaced atomically like every other file.
      replace_file_atomically(directory / name, grid->encode_summary(t, (directory / name).string(), written));
      index.add(t, name);
    } catch (const std::exception& e) {
      error = (directory / name).string() + ": " + e.what() + " at t = " + format_double(t);
    }
  } else {
    index.add(t, name);  // the numbering only: rank 0 writes the index
  }
  int ok = error.empty() ? 1 : 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  if (!ok)
    throw OutputError(error.empty() ? "VTK output: rank 0 could not write " + name : error);
}

namespace {

int rank_in(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

}  // namespace

VtkWriter::VtkWriter(fs::path directory, const fem::Model& model, CellValueSource* cell_values)
    : impl_(std::make_unique<Impl>(std::move(directory), model, 0)) {
  impl_->cell_values = cell_values;
  create_output_directory(impl_->directory);
  impl_->select_piece({});
  impl_->create_grid();
}

VtkWriter::VtkWriter(fs::path directory, const fem::Model& model, MPI_Comm comm,
                     std::span<const std::size_t> local_elements)
    : impl_(std::make_unique<Impl>(std::move(directory), model, rank_in(comm))) {
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
          m.create_grid();
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
