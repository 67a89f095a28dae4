#pragma once
// A disk that fills: a tmpfs of a few hundred kilobytes mounted for one test (issue 20: a disk
// filling mid-run leaves only complete files). Mounting needs CAP_SYS_ADMIN (root, outside a
// restricted container); a test skips when it may not mount.
#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace catena::testing {

class SmallDisk {
 public:
  /// Mounts a tmpfs of `size` ("300k") on `directory` (made if needed).
  SmallDisk(std::filesystem::path directory, const std::string& size) : directory_(std::move(directory)) {
    std::filesystem::create_directories(directory_);
    const std::string options = "size=" + size + ",mode=0755";
    if (::mount("tmpfs", directory_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) == 0)
      mounted_ = true;
    else
      why_not_ = std::strerror(errno);
  }
  /// Unmounted lazily: a file a failing test left open does not keep the mount.
  ~SmallDisk() {
    if (mounted_) ::umount2(directory_.c_str(), MNT_DETACH);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  [[nodiscard]] bool mounted() const { return mounted_; }
  /// Why mounting failed ("Operation not permitted").
  [[nodiscard]] const std::string& why_not() const { return why_not_; }
  [[nodiscard]] const std::filesystem::path& path() const { return directory_; }

  /// Fills what is left of the disk with the file `name`; returns the bytes it took.
  [[nodiscard]] std::size_t fill(const std::string& name) const {
    const int fd = ::open((directory_ / name).c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return 0;
    const std::vector<char> block(4096, 'x');
    std::size_t total = 0;
    for (ssize_t n = 0; (n = ::write(fd, block.data(), block.size())) > 0;) total += static_cast<std::size_t>(n);
    ::close(fd);
    return total;
  }

 private:
  std::filesystem::path directory_;
  bool mounted_ = false;
  std::string why_not_;
};

}  // namespace catena::testing
