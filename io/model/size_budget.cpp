#include "io/model/size_budget.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace catena::io::reader {

namespace {

// Bytes per unit of size, fitted to the peak resident memory of `catena run` (one step, MUMPS)
// less that of an empty model (57 MB), as an upper envelope: beams of 2·10^4 and 6·10^4 elements
// (179 and 537 MB; estimated 216 and 648), chains of 2 000 and 8 000 jointed bodies (70 and 278 MB;
// 74 and 294), 10^4 and 4·10^4 nodes each with a mass and a load (193 and 776 MB; 186 and 742).
// A list item of the file holds its parsed expressions (a load's three are most of its 6 kB);
// the matrix, its factorization and the elements' work scale with the non-zeros.
constexpr double bytes_per_nonzero = 60.0;
constexpr double bytes_per_item = 6000.0;

/// MemAvailable of /proc/meminfo [bytes]; nothing where there is none.
std::optional<double> memory_available() {
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("MemAvailable:")) continue;
    std::istringstream s(line.substr(13));
    double kib = 0.0;
    if (s >> kib) return kib * 1024.0;
  }
  return std::nullopt;
}

std::string format_count(double n) {
  if (n < 1e7) return std::to_string(static_cast<long long>(n));
  return format_number(n);
}

}  // namespace

ModelSize& ModelSize::operator+=(const ModelSize& o) {
  nodes += o.nodes;
  unknowns += o.unknowns;
  nonzeros += o.nonzeros;
  items += o.items;
  return *this;
}

ModelSize ModelSize::operator+(const ModelSize& o) const {
  ModelSize sum = *this;
  return sum += o;
}

ModelSize ModelSize::times(double copies) const {
  return {nodes * copies, unknowns * copies, nonzeros * copies, items * copies};
}

ModelSize node_size(bool frame) {
  const double n = frame ? 6.0 : 3.0;
  return {.nodes = 1.0, .unknowns = n, .nonzeros = n * n, .items = 0.0};
}

ModelSize two_frame_element_size() { return {.nodes = 0.0, .unknowns = 0.0, .nonzeros = 144.0, .items = 0.0}; }

ModelSize joint_size() { return {.nodes = 0.0, .unknowns = 12.0, .nonzeros = 2.0 * 12.0 * 12.0 + 144.0, .items = 0.0}; }

double memory_estimate(const ModelSize& s) {
  return bytes_per_nonzero * s.nonzeros + bytes_per_item * s.items;
}

std::optional<double> parse_memory_size(std::string_view text) {
  if (text == "none") return std::numeric_limits<double>::infinity();
  double factor = 1.0;
  if (!text.empty()) {
    const char unit = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
    const std::string_view units = "KMGT";
    if (const std::size_t k = units.find(unit); k != std::string_view::npos) {
      factor = std::pow(1024.0, static_cast<double>(k + 1));
      text.remove_suffix(1);
    }
  }
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || !(value > 0.0) ||
      !std::isfinite(value))
    return std::nullopt;
  return value * factor;
}

std::string format_bytes(double bytes) {
  if (std::isinf(bytes)) return "no limit";
  constexpr std::array<const char*, 5> units{"bytes", "KiB", "MiB", "GiB", "TiB"};
  std::size_t k = 0;
  while (k + 1 < units.size() && bytes >= 1024.0) {
    bytes /= 1024.0;
    ++k;
  }
  std::ostringstream o;
  o.precision(bytes < 10.0 ? 2 : 3);
  o << bytes << ' ' << units[k];
  return o.str();
}

MemoryLimit memory_limit() {
  if (const char* text = std::getenv("CATENA_MEMORY_LIMIT"); text && *text) {
    const std::optional<double> bytes = parse_memory_size(text);
    if (!bytes)
      throw std::invalid_argument("CATENA_MEMORY_LIMIT: expected a memory size (bytes, or with K, M, G or T: 8G) or "
                                  "'none'; found '" + std::string(text) + "'");
    return {*bytes, format_bytes(*bytes) + " (CATENA_MEMORY_LIMIT)"};
  }
  const std::optional<double> available = memory_available();
  if (available && *available < default_memory_cap)
    return {*available, format_bytes(*available) + " (the memory available; CATENA_MEMORY_LIMIT sets another limit)"};
  return {default_memory_cap, format_bytes(default_memory_cap) + " (the default cap; CATENA_MEMORY_LIMIT sets another)"};
}

void SizeBudget::reserve(const Cursor& where, const ModelSize& added, std::string_view what) {
  double copies = 1.0;
  for (const Repeat& r : repeats_) copies *= r.copies;
  ModelSize projected = size_;
  projected += added.times(copies);
  if (!limit_) limit_ = memory_limit();
  const double bytes = memory_estimate(projected);
  if (!(bytes <= limit_->bytes)) {
    std::string in_repeats;
    if (copies > 1.0) {
      in_repeats = " in " + format_count(copies) + " copies (the repeat" + (repeats_.size() > 1 ? "s" : "") + " on line";
      for (std::size_t k = 0; k < repeats_.size(); ++k)
        in_repeats += (k == 0 ? std::string(repeats_.size() > 1 ? "s " : " ") : k + 1 == repeats_.size() ? " and " : ", ") +
                      std::to_string(repeats_[k].line);
      in_repeats += ")";
    }
    where.fail("the model would need about " + format_bytes(bytes) + " (" + format_count(projected.unknowns) +
               " unknowns, " + format_count(projected.nonzeros) + " non-zeros) with " + std::string(what) +
               in_repeats + "; expected at most " + limit_->described);
  }
  size_ += added;
}

void SizeBudget::enter_repeat(double copies, int line) { repeats_.push_back({copies, line}); }

void SizeBudget::leave_repeat() { repeats_.pop_back(); }

}  // namespace catena::io::reader
