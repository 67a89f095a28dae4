#include "io/csv_writer.hpp"

#include "io/output_directory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace catena::io {

namespace fs = std::filesystem;

namespace {

/// A CSV field: as is, or quoted with doubled quotes when it holds a comma, quote or line break.
std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

void append_number(std::string& row, double value) {
  row += ',';
  row += format_double(value);
}

}  // namespace

std::string CsvWriter::sensors_header(const fem::Model& model) {
  std::string header = "t";
  for (const fem::Sensor& s : model.sensors) header += ',' + csv_field(s.name);
  return header;
}

CsvWriter::File CsvWriter::open(const fs::path& path, std::string_view header, bool append) {
  bool write_header = true;
  if (append) {
    std::error_code ec;
    if (fs::exists(path, ec) && fs::file_size(path, ec) > 0 && !ec) {
      std::ifstream in(path);
      std::string first;
      std::getline(in, first);
      if (!first.empty() && first.back() == '\r') first.pop_back();
      if (first != header)
        throw std::runtime_error(path.string() + ": header '" + first + "' differs from this model's '" +
                                 std::string(header) +
                                 "'; cannot append to it (remove the file or restart "
                                 "with the model that wrote it)");
      write_header = false;
    }
  }
  // Never through a symbolic link: a new file replaces whatever had the name; rows are appended
  // only to a regular file (O_NOFOLLOW refuses a link with ELOOP).
  int fd = -1;
  if (!append) {
    fd = create_new_file(path);
  } else {
    fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
      throw OutputError(path.string() + ": cannot open for appending (" +
                        (errno == ELOOP ? std::string("a symbolic link; rows are not written through it")
                                        : std::string(std::strerror(errno))) +
                        ")");
  }
  File file{path, std::unique_ptr<std::FILE, FileCloser>(::fdopen(fd, "a"))};
  if (!file.handle) {
    const int error = errno;
    ::close(fd);
    throw OutputError(path.string() + ": cannot open for writing (" + std::strerror(error) + ")");
  }
  if (write_header) write_row(file, std::string(header) + '\n');
  return file;
}

std::uintmax_t CsvWriter::size_keeping_rows(const fs::path& file, long rows, double last_t) {
  // It is then cut to that size, which would cut a file a link points to.
  std::error_code ec;
  if (fs::is_symlink(fs::symlink_status(file, ec)))
    throw std::runtime_error(file.string() + ": is a symbolic link; a run's own results are regular files, and "
                             "Catena does not cut or write through a link (write the continuation to another "
                             "--out directory)");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(file.string() + ": cannot open it to continue the run");
  std::string line;
  std::uintmax_t size = 0;
  std::string last;
  for (long row = 0; row <= rows && std::getline(in, line); ++row) {
    if (in.eof()) throw std::runtime_error(file.string() + ": its last line is incomplete; cannot continue it");
    size += line.size() + 1;  // getline dropped the '\n'
    last = line;
    if (row == rows) {
      const std::string_view t = std::string_view(last).substr(0, last.find(','));
      double value = 0.0;
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
      if (ec != std::errc() || end != t.data() + t.size() || value != last_t)
        throw std::runtime_error(file.string() + ": row " + std::to_string(rows) + " is at t = " + std::string(t) +
                                 ", the checkpoint's last frame at t = " + format_double(last_t) +
                                 "; these are not the results of the run the checkpoint belongs to (write the "
                                 "continuation to another --out directory)");
      return size;
    }
  }
  throw std::runtime_error(file.string() + ": has fewer than the " + std::to_string(rows) +
                           " rows the checkpoint expects; these are not the results of the run the checkpoint "
                           "belongs to (write the continuation to another --out directory)");
}

void CsvWriter::write_row(File& file, const std::string& row) {
  std::FILE* f = file.handle.get();
  errno = 0;
  if (std::fputs(row.c_str(), f) < 0 || std::fflush(f) != 0 || std::ferror(f))
    throw OutputError(file.path.string() + ": write failed (" +
                      (errno != 0 ? std::strerror(errno) : "disk full?") + ")");
}

CsvWriter::CsvWriter(const fs::path& directory, const fem::Model& model, bool append,
                     const std::vector<std::string>& sensitivity_columns)
    : model_(model) {
  create_output_directory(directory);
  energy_ = open(directory / energy_file_name, energy_header, append);
  sensors_ = open(directory / sensors_file_name, sensors_header(model), append);
  if (!sensitivity_columns.empty()) {
    std::string header = "t";
    for (const std::string& c : sensitivity_columns) header += ',' + csv_field(c);
    sensitivities_ = open(directory / sensitivities_file_name, header, append);
  }
}

void CsvWriter::on_frame(const solvers::Frame& frame) {
  if (!frame.row) return;
  if (frame.states.size() != model_.nodes.size())
    throw std::invalid_argument("CSV output: frame at t = " + format_double(frame.t) + " has " +
                                std::to_string(frame.states.size()) + " node states, the model " +
                                std::to_string(model_.nodes.size()) + " nodes");

  row_ = format_double(frame.t);
  for (const double v : solvers::energy_columns(frame.energy)) append_number(row_, v);
  row_ += '\n';
  write_row(energy_, row_);

  row_ = format_double(frame.t);
  for (const fem::Sensor& s : model_.sensors)
    append_number(row_, fem::evaluate_sensor(s, model_.nodes, frame.states, model_.initial_state));
  row_ += '\n';
  write_row(sensors_, row_);

  if (sensitivities_ && !frame.sensitivities.empty()) {
    row_ = format_double(frame.t);
    for (const double v : frame.sensitivities) append_number(row_, v);
    row_ += '\n';
    write_row(*sensitivities_, row_);
  }
}

}  // namespace catena::io
