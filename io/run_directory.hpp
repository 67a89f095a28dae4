#pragma once
/// The output directory belongs to one run at a time (issue 20): `catena run` takes an advisory
/// lock on it before writing anything there, and a run that starts afresh clears the frames and
/// checkpoints an earlier run left, so that the directory holds this run's results only.
///
/// The lock is flock(2) on `.catena.lock` inside the directory, a file holding the holder's
/// process id and host ("pid 1234 host node7"). The kernel releases a flock when its holder
/// exits, however it ends (SIGKILL too), so a lock file whose holder died is free and simply taken
/// over; there is no stale-lock guessing from ages or process ids. flock is advisory: it keeps
/// Catena runs apart, not other programs. On NFS flock is emulated with POSIX locks (Linux ≥ 2.6.12)
/// and holds between hosts as far as the server's lock manager does.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace catena::io {

/// Another live process holds the directory's lock; the message names it (process id, host, and
/// its command line when /proc shows it).
class DirectoryInUse : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RunDirectoryLock {
 public:
  static constexpr std::string_view file_name = ".catena.lock";

  /// Creates `directory` if needed and takes its lock without waiting. Throws DirectoryInUse
  /// when another process holds it, OutputError when the directory or the lock file cannot be
  /// made.
  explicit RunDirectoryLock(std::filesystem::path directory);
  /// Removes the lock file, then releases the lock; removes the directory as well when this lock
  /// created it and nothing else was written there (a run refused before its first file).
  ~RunDirectoryLock();
  RunDirectoryLock(const RunDirectoryLock&) = delete;
  RunDirectoryLock& operator=(const RunDirectoryLock&) = delete;

  [[nodiscard]] const std::filesystem::path& directory() const { return directory_; }

 private:
  std::filesystem::path directory_;
  int fd_ = -1;
  bool created_directory_ = false;
};

/// This process as the lock file names it, for messages: "pid 1234 on host node7".
[[nodiscard]] std::string this_process();

/// A run that starts afresh (no --restart) in `directory`: removes what an earlier run wrote
/// there that this one might not overwrite, so that no frame, piece or checkpoint of the earlier
/// run is mistaken for this one's: results_NNNNN.vtu, results_NNNNN.pvtu and their pieces
/// results_NNNNN_<rank>.vtu, scene_NNNNN.vtu, the indexes results.pvd and scene.pvd that list
/// them, checkpoint_NNNNNN.ckpt, and `.tmp` files of any name Catena writes. Only regular files
/// and symbolic links with exactly these names are removed (never what a link points to, never a
/// directory, never a file of another name). Returns the number of files removed; a file that
/// cannot be removed is left (writing the new results then reports the directory's fault).
long remove_earlier_run_outputs(const std::filesystem::path& directory);

/// Whether `name` is one of the files remove_earlier_run_outputs removes.
[[nodiscard]] bool is_earlier_run_output(std::string_view name);

}  // namespace catena::io
