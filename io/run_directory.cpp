#include "io/run_directory.hpp"

#include "io/output_directory.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>
#include <vector>

namespace catena::io {

namespace fs = std::filesystem;

namespace {

std::string host_name() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  return name.data();
}

/// The command line of process `pid` as /proc shows it (arguments joined by spaces), or "".
std::string command_line_of(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && text.back() == '\0') text.pop_back();
  std::replace(text.begin(), text.end(), '\0', ' ');
  return text;
}

/// Who holds the lock, from what it wrote into the lock file ("pid 1234 host node7").
std::string describe_holder(const fs::path& lock_file) {
  std::ifstream in(lock_file);
  std::string pid_key, host_key, host;
  long pid = 0;
  if (!(in >> pid_key >> pid >> host_key >> host) || pid_key != "pid" || host_key != "host")
    return "another process (it has not yet written its process id into " + lock_file.string() + ")";
  std::string holder = "pid " + std::to_string(pid) + " on host " + host;
  if (host == host_name())
    if (const std::string command = command_line_of(pid); !command.empty()) holder += " (" + command + ")";
  return holder;
}

/// Digits only, at least one.
bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// `<prefix><digits><suffix>`, or with `piece`, `<prefix><digits>_<digits><suffix>`.
bool numbered(std::string_view name, std::string_view prefix, std::string_view suffix, bool piece = false) {
  if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix)) return false;
  const std::string_view middle = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (!piece) return all_digits(middle);
  const std::size_t underscore = middle.find('_');
  return underscore != std::string_view::npos && all_digits(middle.substr(0, underscore)) &&
         all_digits(middle.substr(underscore + 1));
}

/// A frame, piece, checkpoint or index of a run, or its sensitivities (the files a later run may
/// leave unwritten: fewer frames, no --sensitivity).
bool is_series_file(std::string_view name) {
  return name == "results.pvd" || name == "scene.pvd" || name == "sensitivities.csv" ||
         name == "mode_sensitivities.csv" || name == "buckling_sensitivities.csv" ||
         numbered(name, "results_", ".vtu") ||
         numbered(name, "results_", ".pvtu") || numbered(name, "results_", ".vtu", true) ||
         numbered(name, "scene_", ".vtu") || numbered(name, "checkpoint_", ".ckpt");
}

/// Every other file Catena writes in the directory (their `.tmp` are an earlier run's leftovers).
bool is_single_file(std::string_view name) {
  static constexpr std::array<std::string_view, 8> names{"summary.json", "energy.csv", "sensors.csv", "modes.csv",
                                                         "buckling.csv", "K.mtx",      "D.mtx",       "M.mtx"};
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

RunDirectoryLock::RunDirectoryLock(fs::path directory) : directory_(std::move(directory)) {
  const fs::path file = directory_ / file_name;
  // A few rounds: a directory or lock file removed by the run that held it just before this one
  // opened it is made again and locked afresh.
  for (int attempt = 0; attempt < 10; ++attempt) {
    std::error_code ec;
    if (!fs::exists(directory_, ec)) {
      create_output_directory(directory_);
      created_directory_ = true;
    } else if (!fs::is_directory(directory_, ec)) {
      create_output_directory(directory_);  // throws: not a directory
    }
    const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
      if (errno == ENOENT) continue;
      if (errno == ELOOP) {  // a symbolic link under the lock's name: replaced, never followed
        ::unlink(file.c_str());
        continue;
      }
      throw OutputError(file.string() + ": cannot open the output directory's lock file (" + std::strerror(errno) +
                        ")");
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      ::close(fd);
      if (error == EWOULDBLOCK)
        throw DirectoryInUse(directory_.string() + ": the output directory is in use by " + describe_holder(file) +
                             "; wait for that run to end, or write to another --out directory");
      throw OutputError(file.string() + ": cannot lock the output directory (" + std::strerror(error) + ")");
    }
    // The holder before this one removes the lock file before it releases the lock: the lock is
    // this run's only when the file locked is still the one under the name.
    struct stat locked{}, named{};
    if (::fstat(fd, &locked) != 0 || ::lstat(file.c_str(), &named) != 0 || locked.st_ino != named.st_ino ||
        locked.st_dev != named.st_dev) {
      ::close(fd);
      continue;
    }
    const std::string holder = "pid " + std::to_string(::getpid()) + " host " + host_name() + "\n";  // describe_holder reads it
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, holder.data(), holder.size(), 0) != static_cast<ssize_t>(holder.size())) {
      const int error = errno;
      ::unlink(file.c_str());
      ::close(fd);
      throw OutputError(file.string() + ": cannot write the output directory's lock file (" + std::strerror(error) +
                        ")");
    }
    fd_ = fd;
    return;
  }
  throw OutputError(file.string() + ": the output directory's lock file kept changing; cannot lock it");
}

RunDirectoryLock::~RunDirectoryLock() {
  if (fd_ < 0) return;
  ::unlink((directory_ / file_name).c_str());  // before the release: see the constructor
  ::close(fd_);
  if (created_directory_) ::rmdir(directory_.c_str());  // fails, as it should, unless empty
}

bool is_earlier_run_output(std::string_view name) {
  if (is_series_file(name)) return true;
  if (!name.ends_with(".tmp")) return false;
  const std::string_view stem = name.substr(0, name.size() - 4);
  return is_series_file(stem) || is_single_file(stem);
}

std::string this_process() { return "pid " + std::to_string(::getpid()) + " on host " + host_name(); }

long remove_earlier_run_outputs(const fs::path& directory) {
  std::vector<fs::path> earlier;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::file_status status = it->symlink_status(ec);
    if (ec || !(fs::is_regular_file(status) || fs::is_symlink(status))) continue;
    if (is_earlier_run_output(it->path().filename().string())) earlier.push_back(it->path());
  }
  long removed = 0;
  for (const fs::path& file : earlier)
    if (fs::remove(file, ec)) ++removed;
  return removed;
}

}  // namespace catena::io
