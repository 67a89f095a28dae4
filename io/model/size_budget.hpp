#pragma once
/// The size of the model being read, projected before the sections generate it, against a memory
/// limit: a count that would make the model too large for the memory a run may use (`beams:
/// elements: 1e9`, repeats nested 1e5 × 1e5) is refused at its line, with the estimate, before
/// anything is allocated for it (docs/model-format.md, "Limits").
#include "io/yaml_cursor.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace catena::io::reader {

/// What a model, or a part of one, adds up to. Counts are doubles: a projection of absurd counts
/// (1e9 elements in 1e5 copies) must not overflow.
struct ModelSize {
  double nodes = 0.0;
  double unknowns = 0.0;   ///< node unknowns and joint multipliers (at most)
  double nonzeros = 0.0;   ///< of the Newton matrix, the elements' blocks (at most)
  double items = 0.0;      ///< list items of the file (with their parsed expressions)

  ModelSize& operator+=(const ModelSize& o);
  [[nodiscard]] ModelSize times(double copies) const;
  [[nodiscard]] ModelSize operator+(const ModelSize& o) const;
};

/// Per-item estimates: a node (6 unknowns with axes, 3 without, and its diagonal block); an element
/// between two frame nodes (a beam: its 12 × 12 block); a joint (its multipliers and generalized
/// forces, 12 at most, coupled with its two nodes' 12 unknowns).
[[nodiscard]] ModelSize node_size(bool frame);
[[nodiscard]] ModelSize two_frame_element_size();
[[nodiscard]] ModelSize joint_size();

/// The bytes a run needs for a model of size `s`: 60 per non-zero, 6 000 per list item, as measured
/// on beams, chains and nodes with loads (size_budget.cpp; docs/model-format.md "Limits").
[[nodiscard]] double memory_estimate(const ModelSize& s);

/// The memory a model may need: CATENA_MEMORY_LIMIT when set ("8G", "512M", "2e9", or "none");
/// otherwise the memory available (MemAvailable in /proc/meminfo) at most `default_memory_cap`.
struct MemoryLimit {
  double bytes = 0.0;      ///< infinite for "none"
  std::string described;   ///< "21.3 GiB (the memory available)"
};
inline constexpr double default_memory_cap = 64.0 * 1024 * 1024 * 1024;  // 64 GiB
/// Throws std::invalid_argument for a malformed CATENA_MEMORY_LIMIT.
[[nodiscard]] MemoryLimit memory_limit();
/// The limit `text` gives ("8G": GiB, "512M", "1.5e9", "none"); nothing when malformed.
[[nodiscard]] std::optional<double> parse_memory_size(std::string_view text);
/// "1.5 GiB", "300 MiB".
[[nodiscard]] std::string format_bytes(double bytes);

class SizeBudget {
 public:
  /// Adds `added` (one copy) to the model's size; fails at `where` when the size projected with
  /// every copy the enclosing repeats are still to make would pass the memory limit. `what` names
  /// the count ("1000000000 elements").
  void reserve(const Cursor& where, const ModelSize& added, std::string_view what);

  /// A repeat block on `line` is to make `copies` more copies of its items, this one included.
  void enter_repeat(double copies, int line);
  void leave_repeat();

  [[nodiscard]] const ModelSize& size() const { return size_; }

 private:
  struct Repeat {
    double copies;
    int line;
  };
  ModelSize size_;
  std::vector<Repeat> repeats_;
  std::optional<MemoryLimit> limit_;  // read at the first reservation
};

}  // namespace catena::io::reader
