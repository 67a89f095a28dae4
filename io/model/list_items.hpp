#pragma once
/// The items of a list section, with `repeat` blocks expanded (docs/model-format.md, "repeat").
#include "io/model/model_context.hpp"

#include <cstddef>
#include <functional>

namespace catena::io::reader {

/// Called with each item and how many items were visited before it (for default names).
using ItemVisitor = std::function<void(const Cursor& item, std::size_t count)>;

/// Calls `visit` for every item of `list`, in order. A `- repeat: {index: k, from: 1, to: n,
/// step: 1}` item with `items: [...]` visits its items once for each value of k, which is a
/// parameter while they are read; an error inside names the value.
void for_each_item(ModelContext& context, const Cursor& list, const ItemVisitor& visit);

}  // namespace catena::io::reader
