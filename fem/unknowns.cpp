#include "fem/unknowns.hpp"

#include <numeric>
#include <stdexcept>

namespace catena::fem {

std::string BlockInfo::row_name(int component) const {
  static constexpr const char* axes[] = {"x", "y", "z", "rx", "ry", "rz"};
  // Blocks of 3 (x, y, z) and of 6 (joints: x, y, z, rx, ry, rz) name their components.
  const bool named = size == 3 || size == 6;
  return owner + " " + label + " " + (named ? axes[component] : std::to_string(component + 1));
}

BlockId UnknownRegistry::add_block(std::string owner, std::string label, UnknownKind kind, int size) {
  if (size < 1 || size > max_block_size) throw std::logic_error("block size out of range");
  blocks_.push_back(BlockInfo{std::move(owner), std::move(label), kind, size, {}, {}, {}});
  return BlockId{static_cast<std::int32_t>(blocks_.size() - 1)};
}

void UnknownRegistry::fix(BlockId b, int component) { blocks_.at(b.index).fixed.at(component) = true; }

void UnknownRegistry::drive(BlockId b, int component) { blocks_.at(b.index).driven.at(component) = true; }

void UnknownRegistry::turn_with(BlockId b, NodeId node) { blocks_.at(b.index).turns_with = node; }

void UnknownRegistry::couple(std::span<const BlockId> blocks) {
  couplings_.emplace_back(blocks.begin(), blocks.end());
}

void UnknownRegistry::insert_coupling(std::size_t position, std::span<const BlockId> blocks) {
  couplings_.emplace(couplings_.begin() + static_cast<std::ptrdiff_t>(position), blocks.begin(), blocks.end());
}

int UnknownRegistry::n_free_dofs() const {
  int n = 0;
  for (const BlockInfo& b : blocks_)
    for (int c = 0; c < b.size; ++c) n += b.fixed[c] ? 0 : 1;
  return n;
}

DofMap UnknownRegistry::numbering(std::span<const BlockId> order) const {
  std::vector<std::int32_t> offsets(blocks_.size() + 1, 0);
  for (std::size_t i = 0; i < blocks_.size(); ++i) offsets[i + 1] = offsets[i] + blocks_[i].size;
  std::vector<Dof> dofs(static_cast<std::size_t>(offsets.back()), fixed_dof);
  Dof next = 0;
  for (const BlockId b : order) {
    const BlockInfo& info = blocks_[b.index];
    for (int c = 0; c < info.size; ++c)
      if (!info.fixed[c]) dofs[offsets[b.index] + c] = next++;
  }
  return DofMap(std::move(dofs), std::move(offsets));
}

DofMap UnknownRegistry::sequential_numbering() const {
  std::vector<BlockId> order(blocks_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = BlockId{static_cast<std::int32_t>(i)};
  return numbering(order);
}

}  // namespace catena::fem
