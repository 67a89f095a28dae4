#pragma once
/// The items of a list section, with `repeat` blocks expanded (docs/model-format.md, "repeat").
#include "io/model/model_context.hpp"

#include <cstddef>
#include <functional>
#include <span>
#include <string_view>

namespace catena::io::reader {

/// Called with each item and how many items were visited before it (for default names).
using ItemVisitor = std::function<void(const Cursor& item, std::size_t count)>;

/// Calls `visit` for every item of `list`, in order. A `- repeat: {index: k, from: 1, to: n,
/// step: 1}` item with `items: [...]` visits its items once for each value of k, which is a
/// parameter while they are read; an error inside names the value.
void for_each_item(ModelContext& context, const Cursor& list, const ItemVisitor& visit);

/// A list section of mappings: its top-level key, what the list and each item are (for messages:
/// "a list of trusses {name, nodes, EA}", "a truss {name, nodes, EA, rest_length}") and the keys an
/// item may hold.
struct ListSection {
  std::string_view key;
  std::string_view list_what;
  std::string_view item_what;
  std::span<const std::string_view> item_keys;
};

/// `for_each_mapping` over the optional list `section` (absent or empty: no items).
void for_each_section_item(ModelContext& context, const ListSection& section, const ItemVisitor& visit);

/// `for_each_item` for a list of mappings: each item must be a mapping (`what` describes it, with
/// its keys) holding only the keys `known` before `visit` sees it.
void for_each_mapping(ModelContext& context, const Cursor& list, std::string_view what,
                      std::span<const std::string_view> known, const ItemVisitor& visit);

}  // namespace catena::io::reader
