#pragma once
/// Every key of a model file, declared once: its mapping context, name, whether it is required,
/// unit, default, bound and one line of documentation. The table feeds the reader's and `--set`'s
/// lists of known keys (io/yaml_schema.hpp), the units of the readers' messages (`unit_of`) and
/// the key tables of docs/model-format.md (`keys_markdown`, checked by tests/io/model_keys_test.cpp).
/// The rows live in io/model_keys_*.hpp, one file per group of sections; a context's keys are in
/// the order the reader's messages list them.
#include "io/model_keys_analysis.hpp"
#include "io/model_keys_beams.hpp"
#include "io/model_keys_elements.hpp"
#include "io/model_keys_joints.hpp"
#include "io/model_keys_model.hpp"
#include "io/model_keys_row.hpp"

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace catena::io::schema {

/// The whole table, group by group.
inline constexpr std::array<std::span<const ModelKey>, 5> model_key_groups{
    std::span<const ModelKey>(model_keys), std::span<const ModelKey>(element_keys),
    std::span<const ModelKey>(beam_keys), std::span<const ModelKey>(joint_keys),
    std::span<const ModelKey>(analysis_keys)};

/// How many keys `context` has.
constexpr std::size_t key_count(std::string_view context) {
  std::size_t n = 0;
  for (const auto group : model_key_groups)
    for (const ModelKey& key : group) n += key.context == context ? 1 : 0;
  return n;
}

/// The names of the keys of `context`, in table order (`N` = key_count(context)).
template <std::size_t N>
constexpr std::array<std::string_view, N> key_names(std::string_view context) {
  std::array<std::string_view, N> names{};
  std::size_t n = 0;
  for (const auto group : model_key_groups)
    for (const ModelKey& key : group)
      if (key.context == context) names[n++] = key.name;
  return names;
}

/// A context name as a template argument: `keys_of<"analysis">`.
template <std::size_t N>
struct ContextName {
  char text[N]{};
  consteval ContextName(const char (&name)[N]) {  // NOLINT(google-explicit-constructor): spelt as a literal
    for (std::size_t i = 0; i < N; ++i) text[i] = name[i];
  }
  [[nodiscard]] constexpr std::string_view view() const { return {text, N - 1}; }
};

/// The names of the keys of context `C`; a context without keys in the table does not compile.
template <ContextName C>
consteval auto make_keys_of() {
  constexpr std::size_t n = key_count(C.view());
  static_assert(n > 0, "no key of this context in io/model_keys_*.hpp");
  return key_names<n>(C.view());
}
template <ContextName C>
inline constexpr auto keys_of = make_keys_of<C>();

/// The unit of key `name` of `context`, as messages write it; a key missing from the table does
/// not compile (the throw is not a constant expression), so a reader cannot name a unit the
/// table does not declare.
consteval std::string_view unit_of(std::string_view context, std::string_view name) {
  for (const auto group : model_key_groups)
    for (const ModelKey& key : group)
      if (key.context == context && key.name == name) return key.unit;
  throw "no such key in io/model_keys_*.hpp";
}

/// unit_of as the string a reader's `Quantity` holds: `unit<"analysis", "dt">()` is "s".
template <ContextName Context, ContextName Key>
std::string unit() {
  return std::string(unit_of(Context.view(), Key.view()));
}

/// The contexts of the table, each once, in table order.
std::vector<std::string_view> key_contexts();

/// The markdown table of the keys of `context` (columns key, required, unit, default, bound,
/// meaning), one line per key, ending with a newline.
std::string keys_markdown(std::string_view context);

/// `document` with the lines between each line `<!-- keys: CONTEXT -->` and the next line
/// `<!-- /keys -->` replaced by keys_markdown(CONTEXT) between blank lines. Throws
/// std::invalid_argument for a marker without its end or naming a context the table does not have.
std::string with_key_tables(std::string_view document);

}  // namespace catena::io::schema
