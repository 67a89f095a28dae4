#pragma once
/// The scene: a second VTK series that draws the mechanism as geometry (rigid bodies as links
/// and shapes, joints with their axes, beams as lines), written at the same frames as
/// results_NNNNN.vtu: `scene_NNNNN.vtu` (same numbering and times) and its index `scene.pvd`,
/// replaced atomically like results.pvd (io/pvd_index.hpp). `output.scene: false` writes neither.
///
/// Each scene_NNNNN.vtu is one unstructured grid (VTK XML, binary appended, LZ4-compressed from
/// 1 000 points: zlib took 13 ms per frame of a 1000-bar chain, LZ4 3 ms, for files 2.4 times
/// larger, 280 kB) in which every drawn item has points of its own (no point is shared between
/// items), at its current position in global axes [m]; io/scene_layout.hpp lists the cells, the
/// `part` codes (1 beam, 2 truss, 3 body link, 4 body shape, 5 joint, 6 point mass), the
/// `element` index and the point fields (displacement, velocity, section_radius,
/// joint_axis_1..3, section_force, section_moment; deflection, deflection_local with
/// `output.deflection_frame`); io/scene_shapes.hpp the shapes. Field data `TIME` [s].
///
/// MPI: every rank keeps every node's state (solvers/observer.hpp) and the scene needs nothing
/// else but the model's constant geometry, so rank 0 alone writes the whole scene, serially, as
/// one .vtu per frame (no pieces): io/commands.cpp makes the writer on rank 0 only. A run on N
/// ranks writes the same scene files as on one.
#include "solvers/observer.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace catena::io {

class SceneWriter final : public solvers::Observer {
 public:
  /// Creates `directory` if needed. `model` must outlive the writer, its nodes and elements
  /// unchanged afterwards. Throws std::invalid_argument when an element's drawing names a node
  /// outside the model, std::runtime_error when the directory cannot be created or the VTK module
  /// loaded.
  SceneWriter(std::filesystem::path directory, const fem::Model& model);
  ~SceneWriter() override;
  SceneWriter(const SceneWriter&) = delete;
  SceneWriter& operator=(const SceneWriter&) = delete;

  /// Writes the next scene_NNNNN.vtu when the frame is a VTK frame, then lists it in scene.pvd.
  /// Throws std::invalid_argument when `frame.states` does not hold one state per node,
  /// std::runtime_error when the file cannot be written.
  void on_frame(const solvers::Frame& frame) override;
  /// Brings scene.pvd up to date (a checkpoint's frames are all listed).
  void on_checkpoint(const solvers::IntegratorState& state) override;
  void flush_index();
  /// Restart, before the first frame: as VtkWriter::resume, for scene.pvd and its files (a
  /// directory without scene.pvd gets the continuation only, numbered from `frames`).
  void resume(long frames, double last_frame_t);
  [[nodiscard]] long n_frames() const;

  /// "scene_00042.vtu" for index 42.
  [[nodiscard]] static std::string frame_file_name(long index);
  static constexpr const char* index_file_name = "scene.pvd";

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace catena::io
