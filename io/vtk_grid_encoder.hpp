#pragma once
/// The boundary between catena-run and its VTK module, libcatena_vtk.so (io/vtk_grid_encoder.cpp,
/// loaded by io/vtk_module.hpp, which says why): a grid's layout and its frame arrays as plain
/// data. Both sides include this header; it names no VTK type and no Catena type, so the module
/// holds VTK's code alone and catena-run none of it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace catena::io::vtk {

/// VTK_VERTEX, VTK_LINE, VTK_POLY_LINE; VTK_TRIANGLE, VTK_QUAD, VTK_POLYGON (surfaces of the scene).
/// Grids with fewer points are written uncompressed. Below, zlib costs more time than the bytes
/// it saves: each array's deflate stream sets up 256 KiB of state, 6 M instructions for a frame of
/// 30 points, 4 % of a one-step run, where the frame's raw arrays take a few kilobytes.
inline constexpr std::size_t compressed_from_points = 1000;

enum class CellShape : unsigned char { Vertex, Line, PolyLine, Triangle, Quad, Polygon };

/// What stays the same from frame to frame (io/vtk_writer.hpp describes the content of results,
/// io/scene_writer.hpp that of the scene).
struct GridLayout {
  std::vector<double> reference_points;    ///< 3 per point [m]: the points at t = 0
  std::vector<CellShape> cell_shapes;      ///< one per cell
  std::vector<std::int64_t> cell_offsets;  ///< cells + 1 offsets into cell_points
  std::vector<std::int64_t> cell_points;   ///< every cell's point ids, one cell after another
  /// The node arrays of results.vtu (displacement, velocity, node_id, orientation, directors,
  /// angular_velocity, section_radius, frame_node, and under MPI the ghost array): false for a
  /// grid of generic fields only (the scene), which leaves node_id, frame_node, section_radius
  /// and owned_elsewhere unused.
  bool node_arrays = true;
  std::vector<int> node_id;                ///< per point: the node's index in the model, −1 for element points
  std::vector<int> frame_node;             ///< per point: 1 for frame nodes
  std::vector<double> section_radius;      ///< per point [m]
  /// Per point, 1 where another piece owns it (VTK's ghost array marks it a duplicate); empty:
  /// no ghost array (serial).
  std::vector<unsigned char> owned_elsewhere;
  std::vector<std::pair<std::string, int>> cell_fields;  ///< name and components (1, or 3 for vectors)
  /// Double point arrays, name and components, after the node arrays; set through point_field
  /// (zero at first; values stay from frame to frame until changed).
  std::vector<std::pair<std::string, int>> point_fields;
  /// Integer cell arrays constant in time, name and one value per cell, after the cell fields.
  std::vector<std::pair<std::string, std::vector<int>>> cell_labels;
  /// Strings of the field data, constant in time, name and text, after TIME.
  std::vector<std::pair<std::string, std::string>> field_strings;
  bool compressed = false;                 ///< zlib for the arrays
  /// With `compressed`: LZ4 instead of zlib (several times faster to write, larger files).
  bool fast_compression = false;
  [[nodiscard]] std::size_t n_points() const { return reference_points.size() / 3; }
  [[nodiscard]] std::size_t n_cells() const { return cell_shapes.size(); }
};

/// The node arrays a frame of results sets: 3 components each, orientation 4 (w, x, y, z).
enum class PointArray : int { Displacement, Velocity, Orientation, Director1, Director2, Director3, AngularVelocity };

/// One grid (a serial frame series, or one rank's piece) in VTK's objects. The frame's values are
/// written straight into its arrays (no copy), then encoded.
class GridEncoder {
 public:
  GridEncoder() = default;
  GridEncoder(const GridEncoder&) = delete;
  GridEncoder& operator=(const GridEncoder&) = delete;
  virtual ~GridEncoder() = default;

  /// The current positions, 3 per point [m].
  [[nodiscard]] virtual double* points() = 0;
  /// A node array (GridLayout::node_arrays); throws std::invalid_argument for a grid without them.
  [[nodiscard]] virtual double* point_array(PointArray which) = 0;
  /// Point field `k` of the layout's point_fields, components per point.
  [[nodiscard]] virtual double* point_field(std::size_t k) = 0;
  /// Cell field `k` (the layout's, then those added), components per cell.
  [[nodiscard]] virtual double* cell_field(std::size_t k) = 0;
  /// A field the layout did not have, NaN everywhere; returns its index.
  virtual std::size_t add_cell_field(const std::string& name, int components) = 0;
  /// The .vtu of the current values at time t (VTK XML, appended raw binary, field data TIME).
  /// Throws std::runtime_error when VTK cannot write it.
  [[nodiscard]] virtual std::string encode(double t) = 0;
  /// The .pvtu of a frame at time t whose pieces `<stem of file>_<rank>.vtu` exist for the ranks
  /// with `written[rank] != 0`, with this grid's arrays. Throws std::runtime_error.
  [[nodiscard]] virtual std::string encode_summary(double t, const std::string& file,
                                                   const std::vector<unsigned char>& written) = 0;
};

/// The module's entry point, looked up by name (io/vtk_module.cpp): a new encoder the caller
/// owns. Throws std::runtime_error (or std::bad_alloc).
using CreateGridEncoder = GridEncoder* (*)(const GridLayout& layout);
inline constexpr const char* create_grid_encoder_symbol = "catena_vtk_create_grid_encoder";

}  // namespace catena::io::vtk
