#include "io/output_directory.hpp"

#include <array>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace catena::io {

namespace fs = std::filesystem;

void create_output_directory(const fs::path& directory) {
  std::error_code ec;
  fs::create_directories(directory, ec);
  if (ec)
    throw std::runtime_error(directory.string() + ": cannot create the output directory (" + ec.message() +
                             ")");
  if (!fs::is_directory(directory, ec))
    throw std::runtime_error(directory.string() +
                             ": exists but is not a directory; cannot write output there");
}

void replace_file_atomically(const fs::path& file, std::string_view content) {
  fs::path tmp = file;
  tmp += ".tmp";
  {
    errno = 0;
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw std::runtime_error(tmp.string() + ": cannot open for writing" +
                               (errno != 0 ? std::string(" (") + std::strerror(errno) + ")" : std::string()));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) throw std::runtime_error(tmp.string() + ": write failed (disk full?)");
  }
  std::error_code renamed;
  fs::rename(tmp, file, renamed);
  if (renamed) {
    std::error_code ignored;  // the rename's error is the one to report (it said "Success" once)
    fs::remove(tmp, ignored);
    throw std::runtime_error(file.string() + ": cannot replace it by " + tmp.filename().string() + " (" +
                             renamed.message() + ")");
  }
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
