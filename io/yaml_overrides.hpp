#pragma once
/// `--set key=value` overrides, applied to the YAML document before it is read, so that a
/// variant of a model (another time step, another integrator, another parameter value) needs no
/// copy of the file.
///   - `key` a declared parameter: its value is replaced (an expression may use earlier parameters).
///   - otherwise `key` is a path into the document, segments separated by dots: mapping keys,
///     sequence indices from 0 (`nodes.1.position.0`, also written `nodes[1].position[0]`) or the
///     `name` of a sequence entry (`trusses.rod.EA`). Its existing scalar is replaced; a missing
///     key is added only if it is a known optional key of that mapping (`analysis.dt_min`).
///   - a value that YAML aliases share (`position: *p`), or one inside it, is refused: yaml-cpp
///     holds it once for every place that uses it, so the override would change them all.
/// Errors (no '=', unknown key or index, a shared value) are `InputError`s at "--set", naming the
/// key, with a suggestion; errors found later in a replaced value point at the value's place in the
/// file and quote the override.
#include "io/yaml_cursor.hpp"

#include <span>
#include <string>
#include <string_view>

namespace catena::io {

/// `text` is the document's own, which says which of its nodes aliases share.
void apply_overrides(YAML::Node root, std::string_view text, std::span<const std::string> overrides, Source& source);

}  // namespace catena::io
