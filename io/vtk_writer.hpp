#pragma once
/// VTK output for ParaView: one unstructured grid per frame, `results_NNNNN.vtu` (frame counter,
/// 00000 first), and the index `results.pvd` (a ParaView collection with the time of every frame),
/// replaced atomically after each frame so that ParaView can open it while the run goes on.
///
/// Content of each .vtu (VTK XML, binary appended, zlib-compressed, coordinates in double):
///   points      current positions of all nodes, in model order [m]; then one point per element
///               with an output point of its own (joints: frame B's joint point), in element order
///   cells       first one per element, in element order: a VTK_VERTEX on its own point (joints),
///               or on its cell nodes (VTK_VERTEX for 1 node, VTK_LINE for 2, VTK_POLY_LINE for
///               more; elements without either have no cell); then one VTK_VERTEX per node, in
///               node order (point masses, isolated nodes)
///   point data  `displacement` (3 components, position − reference position) [m],
///               `velocity` (3 components) [m/s], `node_id` (int, index in the model; −1 on
///               element points), `orientation` (4 components w, x, y, z: the unit quaternion of
///               R, node axes to global), `director_1`, `director_2`, `director_3` (3 components
///               each: the columns of R, the node's axes in global components, for ParaView's
///               Glyph filter) and `angular_velocity` (3 components, global) [rad/s]; point nodes
///               and element points, which have no orientation, write the identity (1, 0, 0, 0),
///               the global axes and zero; `frame_node` (int: 1 for frame nodes, whose triad the
///               directors are, 0 elsewhere); `section_radius` [m] (constant in time: for ParaView's
///               Tube filter, "vary radius by absolute scalar", which takes a point scalar only;
///               each node gets the largest `radius` cell value of the elements through it, 0 if
///               none: a beam node its beam's radius, which for a rectangle is half the larger side,
///               io/model_reader.cpp, so the tube encloses the section's width in every view)
///   cell data   one double array per field any element sets in `cell_values`: 1 component
///               (`axial_force` [N], ...) or 3 for vectors (`reaction_force_vector` [N], global);
///               NaN where a cell does not set it (node vertex cells always). Beams: section
///               forces and `radius`; rigid bodies (a vertex on their node): `mass`,
///               `centre_of_mass`, `centre_velocity`; joints (a vertex on their point): reactions
///               and relative coordinates (elements/joint.hpp)
///   MPI         rank 0 receives every node state (solvers::Frame) and writes the whole grid,
///               so a run on N ranks writes the same single-piece files as one rank
///   field data  `TIME` (1 value) [s]
/// The topology is built once at construction; each frame updates coordinates and arrays only.
/// VTK headers stay in vtk_writer.cpp (pimpl).
#include "solvers/observer.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace catena::io {

class VtkWriter final : public solvers::Observer {
 public:
  /// Creates `directory` if needed. `model` must outlive the writer, and its nodes and elements
  /// must not change afterwards. Throws std::invalid_argument when an element's cell names a node
  /// outside the model, std::runtime_error when the directory cannot be created.
  VtkWriter(std::filesystem::path directory, const fem::Model& model);
  ~VtkWriter() override;
  VtkWriter(const VtkWriter&) = delete;
  VtkWriter& operator=(const VtkWriter&) = delete;
  VtkWriter(VtkWriter&&) noexcept;
  VtkWriter& operator=(VtkWriter&&) noexcept;

  /// Writes the next results_NNNNN.vtu, then replaces results.pvd. Throws std::invalid_argument
  /// when `frame.states` does not hold one state per node, std::runtime_error when a file cannot
  /// be written.
  void on_frame(const solvers::Frame& frame) override;

  /// Restart (`catena run --restart`), before the first frame: continue after frame
  /// `frames − 1` of the run a checkpoint belongs to, whose time is `last_frame_t`. When the
  /// directory has a results.pvd (the run's own directory), its entries after that frame and
  /// their files are removed and the numbering continues; without one (a new directory), the
  /// index lists the continuation only, numbered from `frames`. Throws std::runtime_error when
  /// the results.pvd found has fewer frames or another time at that frame.
  void resume(long frames, double last_frame_t);

  /// Number of frames written so far (the counter of the next file).
  [[nodiscard]] long n_frames() const;
  [[nodiscard]] const std::filesystem::path& directory() const;

  /// "results_00042.vtu" for index 42.
  [[nodiscard]] static std::string frame_file_name(long index);
  static constexpr const char* index_file_name = "results.pvd";

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace catena::io
