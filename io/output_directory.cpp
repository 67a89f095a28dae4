#include "io/output_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <system_error>

namespace catena::io {

namespace fs = std::filesystem;

namespace {

std::string reason(int error) { return std::string(" (") + std::strerror(error) + ")"; }

}  // namespace

void create_output_directory(const fs::path& directory) {
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec)
    throw OutputError(directory.string() + ": cannot create the output directory (" + ec.message() + ")");
  if (!fs::is_directory(directory, ec))
    throw OutputError(directory.string() + ": exists but is not a directory; cannot write output there");
}

int create_new_file(const fs::path& file) {
  // Unlinking first makes the file a new inode: a planted symbolic link (or a hard link to a file
  // elsewhere) loses its name instead of receiving the content. A directory under the name stays,
  // and its reason ("Is a directory") is the one to report.
  if (::unlink(file.c_str()) != 0 && errno != ENOENT)
    throw OutputError(file.string() + ": cannot write it" + reason(errno));
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) throw OutputError(file.string() + ": cannot open for writing" + reason(errno));
  return fd;
}

void write_new_file(const fs::path& file, std::string_view content) {
  const int fd = create_new_file(file);
  int error = 0;
  for (std::size_t written = 0; written < content.size() && error == 0;) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n >= 0)
      written += static_cast<std::size_t>(n);
    else if (errno != EINTR)
      error = errno;
  }
  if (::close(fd) != 0 && error == 0) error = errno;  // NFS reports a full disk at close
  if (error != 0) {
    ::unlink(file.c_str());  // an incomplete file must not stay under a name a reader trusts
    throw OutputError(file.string() + ": write failed" + reason(error));
  }
}

void replace_file_atomically(const fs::path& file, std::string_view content) {
  fs::path tmp = file;
  tmp += ".tmp";
  write_new_file(tmp, content);
  std::error_code renamed;
  fs::rename(tmp, file, renamed);
  if (renamed) {
    std::error_code ignored;  // the rename's error is the one to report (it said "Success" once)
    fs::remove(tmp, ignored);
    throw OutputError(file.string() + ": cannot replace it by " + tmp.filename().string() + " (" +
                      renamed.message() + ")");
  }
}

bool overwrite_within_size(const fs::path& file, std::string_view content, char pad) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  // Only a file of this name alone (a hard link's other name would see the content too) that is
  // long enough: writing over its own blocks allocates none.
  struct stat st{};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
      static_cast<std::uintmax_t>(st.st_size) < content.size()) {
    ::close(fd);
    return false;
  }
  std::string text(content);
  text.resize(static_cast<std::size_t>(st.st_size), pad);
  int error = 0;
  for (std::size_t written = 0; written < text.size() && error == 0;) {
    const ssize_t n = ::pwrite(fd, text.data() + written, text.size() - written, static_cast<off_t>(written));
    if (n >= 0)
      written += static_cast<std::size_t>(n);
    else if (errno != EINTR)
      error = errno;
  }
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    ::unlink(file.c_str());  // half old, half new: no reader may trust it
    throw OutputError(file.string() + ": write failed" + reason(error));
  }
  return true;
}

std::string format_double(double value) {
  if (std::isnan(value)) return "nan";
  // std::to_chars with a precision is specified as printf's %.*g in the C locale.
  std::array<char, 32> buffer{};
  const auto [end, ec] =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::general, 17);
  if (ec != std::errc()) throw std::logic_error("format_double: buffer too small");
  return {buffer.data(), end};
}

}  // namespace catena::io
