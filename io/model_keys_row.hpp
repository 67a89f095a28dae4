#pragma once
/// One row of the table of model keys (io/model_keys.hpp).
#include <string_view>

namespace catena::io::schema {

/// A key of one mapping context of a model file. The texts are markdown, as the docs show them.
struct ModelKey {
  /// The key path with sequence indices written `[]`, as known_keys takes it: "" (top level),
  /// "analysis", "nodes[]", "beams[].section"; `*` stands for any list or any component.
  std::string_view context;
  std::string_view name;
  std::string_view required;       ///< "yes", "no", or when ("one of `node` and `set`")
  std::string_view unit;           ///< SI, as messages write it ("N m^2"); "" for none
  std::string_view default_value;  ///< "" when there is none
  std::string_view bound;          ///< "> 0", ">= 1, integer", "one of: a, b"; "" for none
  std::string_view doc;            ///< what it means, one line
};

}  // namespace catena::io::schema
