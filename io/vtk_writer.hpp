#pragma once
/// VTK output for ParaView: one unstructured grid per frame, `results_NNNNN.vtu` (frame counter,
/// 00000 first), and the index `results.pvd` (a ParaView collection with the time of every frame),
/// replaced atomically after each frame so that ParaView can open it while the run goes on.
///
/// Content of each .vtu (VTK XML, binary appended, zlib-compressed from 1 000 points, coordinates
/// in double):
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
///               fem/cross_section.cpp, so the tube encloses the section's width in every view)
///   cell data   one double array per field any element sets in `cell_values`: 1 component
///               (`axial_force` [N], ...) or 3 for vectors (`reaction_force_vector` [N], global);
///               NaN where a cell does not set it (node vertex cells always). Beams: section
///               forces and `radius`; rigid bodies (a vertex on their node): `mass`,
///               `centre_of_mass`, `centre_velocity`; joints (a vertex on their point): reactions
///               and relative coordinates (elements/joint.hpp)
///   field data  `TIME` (1 value) [s]; with a CellValueSource (io/cell_value_source.hpp, the mode
///               series), `cell_data` (a string: what the cell data are)
/// The topology is built once at construction; each frame updates coordinates and arrays only.
///
/// MPI (the constructor with a communicator of N > 1 ranks; with one rank it writes the serial
/// files above): each frame is a parallel unstructured grid, `results_NNNNN.pvtu` (written by
/// rank 0 with VTK's vtkXMLPUnstructuredGridWriter), whose pieces `results_NNNNN_<rank>.vtu` each
/// rank writes itself, and results.pvd lists the .pvtu files (rank 0, after every piece exists).
/// Which rank writes what, so that every element and every node is exactly one cell:
///   elements    the rank that evaluates the element (assembly::Tableau::local_elements, the owner
///               of its first free block) writes its cell, and its output point (joints)
///   nodes       a node's vertex cell goes to the rank that evaluates the first element, in model
///               order, whose unknowns include the node's (its displacement or rotation block: a
///               beam, truss, rigid body, joint, point mass or load on it); rank 0 for a node no
///               element touches. That rank owns the node
///   points      a piece holds the nodes it owns and the nodes its element cells pass through,
///               in model order, then its elements' output points; a node shared by the cells of
///               two ranks is a point of both pieces, with equal data. Its copies in pieces that
///               do not own it are marked in `vtkGhostType` (VTK's ghost array, DUPLICATEPOINT),
///               an array written under MPI only, so statistics in ParaView count each node once
///   cell data   the same arrays on every rank (created at construction from every element's
///               cell_values at the initial state), in the serial order
/// Pieces and the .pvtu have the serial content otherwise (same arrays, node_id, TIME). A rank
/// with neither cells nor points writes no piece, and the .pvtu does not list it. Every rank
/// writes into `directory`, which must be the same (shared) directory on every rank.
/// The writer builds each grid's layout and fills its arrays from the model; VTK turns them into
/// files in a module of its own, loaded by the first writer (io/vtk_module.hpp says why).
#include "io/cell_value_source.hpp"
#include "solvers/observer.hpp"

#include <mpi.h>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

namespace catena::io {

class VtkWriter final : public solvers::Observer {
 public:
  /// Serial output (one .vtu per frame; no MPI call, also for single frames of the eigen
  /// analysis). Creates `directory` if needed. `model` must outlive the writer, and its nodes and
  /// elements must not change afterwards. `cell_values` (may be null: the elements' own at the
  /// frame's states) gives the cell data, described in each frame's field data; it must outlive
  /// the writer. Throws std::invalid_argument when an element's cell names a node outside the
  /// model, std::runtime_error when the directory cannot be created.
  VtkWriter(std::filesystem::path directory, const fem::Model& model, CellValueSource* cell_values = nullptr);
  /// Output of a run on the ranks of `comm`: collective, every rank constructs it (same model),
  /// then receives every frame. `local_elements` are the elements this rank evaluates
  /// (assembly::Tableau::local_elements: each element on exactly one rank). On one rank the same
  /// as the serial writer; on more, a .pvtu of one piece per rank (header comment). Errors as
  /// the serial constructor, thrown on every rank when one of them fails.
  VtkWriter(std::filesystem::path directory, const fem::Model& model, MPI_Comm comm,
            std::span<const std::size_t> local_elements);
  ~VtkWriter() override;
  VtkWriter(const VtkWriter&) = delete;
  VtkWriter& operator=(const VtkWriter&) = delete;
  VtkWriter(VtkWriter&&) noexcept;
  VtkWriter& operator=(VtkWriter&&) noexcept;

  /// Writes the next results_NNNNN.vtu (under MPI: this rank's piece, and on rank 0 the .pvtu),
  /// then replaces results.pvd (at most twice a second while frames come; always at the end).
  /// Under MPI collective: every rank gets the same frame. Throws
  /// std::invalid_argument when `frame.states` does not hold one state per node,
  /// std::runtime_error when a file cannot be written (under MPI on every rank when any fails).
  void on_frame(const solvers::Frame& frame) override;
  /// Brings results.pvd up to date (a checkpoint's frames are all listed).
  void on_checkpoint(const solvers::IntegratorState& state) override;
  /// Brings results.pvd up to date now (rank 0; the destructor does it too).
  void flush_index();

  /// Restart (`catena run --restart`), before the first frame: continue after frame
  /// `frames − 1` of the run a checkpoint belongs to, whose time is `last_frame_t`. When the
  /// directory has a results.pvd (the run's own directory), its entries after that frame and
  /// their files are removed and the numbering continues; without one (a new directory), the
  /// index lists the continuation only, numbered from `frames`. Throws std::runtime_error when
  /// the results.pvd found has fewer frames or another time at that frame. The entries may be
  /// .vtu or .pvtu files (a .pvtu is removed with its pieces), so a run may continue on another
  /// number of ranks. Under MPI call it on every rank: rank 0 checks and cuts the files (and alone
  /// may throw), the others only continue the numbering; not collective.
  void resume(long frames, double last_frame_t);

  /// Number of frames written so far (the counter of the next file).
  [[nodiscard]] long n_frames() const;

  /// "results_00042.vtu" for index 42.
  [[nodiscard]] static std::string frame_file_name(long index);
  /// Under MPI: "results_00042.pvtu" for index 42; its pieces are "results_00042_<rank>.vtu".
  [[nodiscard]] static std::string parallel_frame_file_name(long index);
  [[nodiscard]] static std::string piece_file_name(long index, int rank);
  static constexpr const char* index_file_name = "results.pvd";

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace catena::io
