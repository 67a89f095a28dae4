#pragma once
/// results.pvd, the ParaView collection that lists a run's VTK frames with their times. Frames
/// are added as their files become complete; the index is replaced atomically, at most every
/// half second while frames come (`add`) and at once on `flush` and at the end, so that ParaView
/// can open it during a run and a crash loses no frame but at most the last half second of the
/// index. Under MPI every rank keeps the entries (they number the frames) and rank 0 alone
/// writes the file (`writes`).
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace catena::io {

class PvdIndex {
 public:
  PvdIndex(std::filesystem::path file, bool writes) : file_(std::move(file)), writes_(writes) {}
  /// Writes what is pending; a failure leaves the file as it was (it lists complete frames only).
  ~PvdIndex();
  PvdIndex(const PvdIndex&) = delete;
  PvdIndex& operator=(const PvdIndex&) = delete;

  /// A frame whose file (relative to the index) is complete.
  void add(double t, std::string file);
  /// Writes the index now if frames wait for it (a checkpoint, the end of a run).
  void flush();
  /// Frames of the run so far, the ones before this index's first included.
  [[nodiscard]] long n_frames() const { return first_frame_ + static_cast<long>(entries_.size()); }

  /// A continuation (--restart) into a directory without this index: it lists the new frames
  /// only, numbered on from `frames`.
  void continue_from(long frames);
  /// A continuation into the directory of the run it continues: reads the index, checks that it
  /// lists at least `frames` frames with the last at `last_frame_t`, removes the frame files after
  /// them (a .pvtu with its pieces) and rewrites the index. Throws std::runtime_error, naming the
  /// file, when the index is not that run's.
  void cut_back_to(long frames, double last_frame_t);

 private:
  struct Entry {
    double t;
    std::string file;
  };
  void write(bool now);

  std::filesystem::path file_;
  bool writes_;
  std::vector<Entry> entries_;
  long first_frame_ = 0;
  /// A small frame costs less than the rename of the index on this machine kind (bathe-pendulum,
  /// 414 frames: 0.8 ms per frame with the index replaced every time, 0.55 ms without).
  static constexpr std::chrono::milliseconds interval_{500};
  std::chrono::steady_clock::time_point written_{};
  bool pending_ = false;
};

}  // namespace catena::io
