#include "io/model_keys.hpp"

#include <algorithm>
#include <stdexcept>

namespace catena::io::schema {

namespace {

/// A table cell: "—" when empty, `|` escaped so that it does not end the cell.
std::string cell(std::string_view text) {
  if (text.empty()) return "—";
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

constexpr std::string_view begin_marker = "<!-- keys: ";
constexpr std::string_view marker_close = " -->";
constexpr std::string_view end_line = "\n<!-- /keys -->";  // the newline ends the table

}  // namespace

std::vector<std::string_view> key_contexts() {
  std::vector<std::string_view> contexts;
  for (const auto group : model_key_groups)
    for (const ModelKey& key : group)
      if (std::find(contexts.begin(), contexts.end(), key.context) == contexts.end()) contexts.push_back(key.context);
  return contexts;
}

std::string keys_markdown(std::string_view context) {
  std::string table = "| key | required | unit | default | bound | meaning |\n|---|---|---|---|---|---|\n";
  for (const auto group : model_key_groups)
    for (const ModelKey& key : group) {
      if (key.context != context) continue;
      table += "| `" + std::string(key.name) + "` | " + cell(key.required) + " | " + cell(key.unit) + " | " +
               cell(key.default_value) + " | " + cell(key.bound) + " | " + cell(key.doc) + " |\n";
    }
  return table;
}

std::string with_key_tables(std::string_view document) {
  std::string out;
  std::size_t at = 0;
  while (true) {
    // A marker is a line of its own: the text may quote one.
    std::size_t begin = document.find(begin_marker, at);
    while (begin != std::string_view::npos && begin > 0 && document[begin - 1] != '\n')
      begin = document.find(begin_marker, begin + 1);
    if (begin == std::string_view::npos) break;
    const std::size_t name_at = begin + begin_marker.size();
    const std::size_t close = document.find(marker_close, name_at);
    const std::size_t line_end = document.find('\n', name_at);
    if (close == std::string_view::npos || line_end == std::string_view::npos || close > line_end)
      throw std::invalid_argument("a '<!-- keys: ' marker without ' -->' on its line");
    const std::string_view context = document.substr(name_at, close - name_at);
    const auto contexts = key_contexts();
    if (std::find(contexts.begin(), contexts.end(), context) == contexts.end())
      throw std::invalid_argument("a key table for '" + std::string(context) + "', a context without keys");
    const std::size_t end = document.find(end_line, line_end);
    if (end == std::string_view::npos)
      throw std::invalid_argument("the key table for '" + std::string(context) + "' has no '<!-- /keys -->'");
    out += document.substr(at, line_end + 1 - at);
    // Blank lines around the table: a markdown table must not run into the markers.
    out += "\n" + keys_markdown(context) + "\n";
    at = end + 1;
  }
  out += document.substr(at);
  return out;
}

}  // namespace catena::io::schema
