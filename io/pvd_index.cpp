#include "io/pvd_index.hpp"

#include "io/output_directory.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace catena::io {

namespace fs = std::filesystem;

namespace {

/// The value of attribute `name` in one XML element's text, if present.
std::optional<std::string> xml_attribute(std::string_view element, std::string_view name) {
  const std::string key = " " + std::string(name) + "=\"";
  const std::size_t at = element.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const std::size_t first = at + key.size();
  const std::size_t last = element.find('"', first);
  if (last == std::string_view::npos) return std::nullopt;
  return std::string(element.substr(first, last - first));
}

/// Removes the pieces `<stem>_<rank>.vtu` of the .pvtu `file` (they sit next to it).
void remove_pieces(const fs::path& file) {
  const std::string prefix = file.stem().string() + "_";
  std::error_code ec;
  std::vector<fs::path> pieces;
  for (fs::directory_iterator it(file.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() + 4 || name.compare(0, prefix.size(), prefix) != 0 ||
        it->path().extension() != ".vtu")
      continue;
    const std::string_view rank = std::string_view(name).substr(prefix.size(), name.size() - prefix.size() - 4);
    if (std::all_of(rank.begin(), rank.end(), [](char c) { return c >= '0' && c <= '9'; })) pieces.push_back(it->path());
  }
  for (const fs::path& p : pieces) fs::remove(p, ec);
}

}  // namespace

PvdIndex::~PvdIndex() {
  if (!pending_) return;
  try {
    write(true);
  } catch (const std::exception&) {
  }
}

void PvdIndex::add(double t, std::string file) {
  entries_.push_back({t, std::move(file)});
  write(false);
}

void PvdIndex::flush() {
  if (pending_) write(true);
}

void PvdIndex::write(bool now) {
  if (!writes_) return;
  pending_ = true;
  const auto time = std::chrono::steady_clock::now();
  if (!now && time - written_ < interval_) return;
  std::string text = "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"";
  text += std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian";
  text += "\">\n  <Collection>\n";
  for (const Entry& e : entries_)
    text += "    <DataSet timestep=\"" + format_double(e.t) + "\" group=\"\" part=\"0\" file=\"" + e.file + "\"/>\n";
  text += "  </Collection>\n</VTKFile>\n";
  replace_file_atomically(file_, text);
  written_ = time;
  pending_ = false;
}

void PvdIndex::continue_from(long frames) {
  entries_.clear();
  first_frame_ = frames;
}

void PvdIndex::cut_back_to(long frames, double last_frame_t) {
  std::ifstream in(file_);
  std::stringstream text;
  text << in.rdbuf();
  const std::string pvd = text.str();
  std::vector<Entry> entries;
  for (std::size_t at = pvd.find("<DataSet"); at != std::string::npos; at = pvd.find("<DataSet", at + 1)) {
    const std::string_view element = std::string_view(pvd).substr(at, pvd.find('>', at) - at);
    const auto t = xml_attribute(element, "timestep");
    const auto file = xml_attribute(element, "file");
    if (!t || !file) throw std::runtime_error(file_.string() + ": a DataSet without timestep or file; cannot continue it");
    entries.push_back({std::strtod(t->c_str(), nullptr), *file});
  }
  if (static_cast<long>(entries.size()) < frames || frames < 1 ||
      entries[static_cast<std::size_t>(frames - 1)].t != last_frame_t)
    throw std::runtime_error(file_.string() + ": lists " + std::to_string(entries.size()) +
                             " frames, the checkpoint expects at least " + std::to_string(frames) +
                             " with the last at t = " + format_double(last_frame_t) +
                             "; these are not the results of the run the checkpoint belongs to (write the "
                             "continuation to another --out directory)");
  // Frames after the checkpoint belong to the results the continuation replaces (a .pvtu with
  // its pieces, whatever the number of ranks that wrote them).
  std::error_code ec;
  for (std::size_t i = static_cast<std::size_t>(frames); i < entries.size(); ++i) {
    const fs::path frame = file_.parent_path() / entries[i].file;
    if (frame.extension() == ".pvtu") remove_pieces(frame);
    fs::remove(frame, ec);
  }
  entries.resize(static_cast<std::size_t>(frames));
  entries_ = std::move(entries);
  first_frame_ = 0;
  write(true);
}

}  // namespace catena::io
