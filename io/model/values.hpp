#pragma once
/// Small readers and formats that several sections share.
#include "fem/types.hpp"
#include "io/model_keys.hpp"
#include "io/yaml_cursor.hpp"

#include <array>
#include <string>
#include <string_view>

namespace catena::io::reader {

inline constexpr std::array<std::string_view, 3> axis_names{"x", "y", "z"};
/// Support components: translations, then rotations (about the node's global axes).
inline constexpr std::array<std::string_view, 6> dof_names{"x", "y", "z", "rx", "ry", "rz"};

/// `true` or `false` (YAML's spellings True, TRUE, ... too).
[[nodiscard]] bool read_bool(const Cursor& c, std::string_view what);

/// What key `Key` of `Context` holds, for messages, in the unit the key table declares for it:
/// `key_quantity<"analysis", "dt">("time step", Bound::Positive)` reads "a positive time step [s]".
template <schema::ContextName Context, schema::ContextName Key>
[[nodiscard]] Quantity key_quantity(std::string noun, Bound bound = Bound::Any) {
  return Quantity{std::move(noun), schema::unit<Context, Key>(), bound};
}

/// "[x, y, z]", each as `format_number` writes it.
[[nodiscard]] std::string format_vector(const fem::Vec3& v);

}  // namespace catena::io::reader
