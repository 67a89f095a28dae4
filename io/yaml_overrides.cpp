#include "io/yaml_overrides.hpp"

#include "io/input_error.hpp"
#include "io/yaml_document.hpp"
#include "io/yaml_schema.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace catena::io {

namespace {

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return std::string(s.substr(first, last - first + 1));
}

[[noreturn]] void fail(const std::string& key, std::string message) {
  throw InputError("--set", 0, 0, key, std::move(message));
}

/// "nodes[1].position[0]" and "nodes.1.position.0" both give {nodes, 1, position, 0}.
std::vector<std::string> split_path(const std::string& key) {
  std::string dotted;
  bool open = false;  // inside [ ]: an index, closed before the next segment
  for (char c : key) {
    if (c == '[') {
      if (open) fail(key, "expected ']' before the next '[' (an index is written [1])");
      open = true;
      dotted += '.';
    } else if (c == ']') {
      if (!open) fail(key, "found ']' without its '[' (an index is written [1])");
      open = false;
    } else {
      if (open && c == '.') fail(key, "expected ']' to close the index before '.' (an index is written [1])");
      dotted += c;
    }
  }
  if (open) fail(key, "expected ']' to close the index at its end (an index is written [1])");
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = dotted.find('.', start);
    std::string segment = trim(std::string_view(dotted).substr(start, dot == std::string::npos ? dot : dot - start));
    if (segment.empty()) fail(key, "expected a dotted path such as analysis.dt or nodes.1.position.0; found an empty segment");
    segments.push_back(std::move(segment));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return segments;
}

std::optional<std::size_t> parse_index(const std::string& s) {
  if (s.empty() || s.size() > 9 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return static_cast<std::size_t>(std::stoul(s));
}

/// Names of the parameters declared in the document.
std::vector<std::string> parameter_names(const YAML::Node& root) {
  std::vector<std::string> names;
  const YAML::Node& const_root = root;
  if (!const_root.IsMap()) return names;
  const YAML::Node parameters = const_root["parameters"];
  if (parameters.IsDefined() && parameters.IsMap())
    for (auto it = parameters.begin(); it != parameters.end(); ++it)
      if (it->first.IsScalar()) names.push_back(it->first.Scalar());
  return names;
}

/// The value node of `key` in the mapping `map`, if present (same node as in the document).
std::optional<YAML::Node> member(const YAML::Node& map, const std::string& key) {
  for (auto it = map.begin(); it != map.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == key) return it->second;
  return std::nullopt;
}

std::string describe(const YAML::Node& n) {
  if (n.IsMap()) return "a mapping";
  if (n.IsSequence()) return "a sequence";
  return "a single value";
}

std::string line_of(const YAML::Mark& mark) { return "line " + std::to_string(mark.line + 1); }

/// Refuses to replace `node` (at `path`, or the model) or anything in it when aliases share it.
void refuse_shared(const std::string& key, const std::string& path, const YAML::Node& node,
                   const std::vector<SharedNode>& shared) {
  const SharedNode* s = find_shared(shared, node);
  if (!s) return;
  const std::string anchor = s->anchor.empty() ? "the anchor" : "&" + s->anchor;
  const std::string alias = s->anchor.empty() ? "an alias" : "*" + s->anchor;
  fail(key, (path.empty() ? "the model" : "'" + path + "'") + " is shared by a YAML anchor and alias (" + anchor +
                " on " + line_of(s->mark) + ", " + alias + " on " + line_of(s->first_alias) +
                "): --set would change every place that uses it; write the value out in full where it should differ");
}

void apply_one(YAML::Node root, const std::string& assignment, Source& source, const std::vector<SharedNode>& shared) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string::npos)
    fail(assignment, "expected key=value (a parameter name or a dotted path such as analysis.dt=0.05); found no '='");
  const std::string key = trim(std::string_view(assignment).substr(0, eq));
  const std::string value = trim(std::string_view(assignment).substr(eq + 1));
  if (key.empty()) fail(assignment, "expected key=value; found no key before '='");
  if (value.empty()) fail(key, "expected key=value; found no value after '='");
  if (!root.IsMap()) return;  // the reader reports a document that is not a mapping

  // A declared parameter.
  const std::vector<std::string> parameters = parameter_names(root);
  if (std::find(parameters.begin(), parameters.end(), key) != parameters.end()) {
    const YAML::Node section = *member(root, "parameters");
    YAML::Node target = *member(section, key);
    refuse_shared(key, "parameters", section, shared);
    refuse_shared(key, "parameters." + key, target, shared);
    if (!target.IsScalar() && !target.IsNull())
      fail(key, "parameter '" + key + "' is " + describe(target) + " in the file; it cannot be set");
    target = value;
    source.note_override(target, assignment, /*created=*/false);
    return;
  }

  // A path into the document.
  const std::vector<std::string> segments = split_path(key);
  YAML::Node current;
  current.reset(root);
  std::string context;  // key path with indices as [], for the schema
  std::string walked;   // key path so far, as written in messages
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& segment = segments[i];
    const bool last = i + 1 == segments.size();
    const std::string where = walked.empty() ? "the model" : "'" + walked + "'";
    refuse_shared(key, walked, current, shared);
    if (current.IsMap()) {
      if (auto next = member(current, segment)) {
        current.reset(*next);
      } else {
        const auto known = schema::known_keys(context);
        if (last && std::find(known.begin(), known.end(), segment) != known.end()) {
          current[segment] = value;
          const YAML::Node created = current[segment];
          source.note_override(created, assignment, /*created=*/true);
          return;
        }
        // An optional section the file leaves out (`output`), created for a key it knows:
        // `--set output.vtk_every=100`.
        const std::string section = context.empty() ? segment : context + "." + segment;
        if (!last && std::find(known.begin(), known.end(), segment) != known.end()) {
          const auto inner = schema::known_keys(section);
          if (std::find(inner.begin(), inner.end(), segments[i + 1]) != inner.end()) {
            current[segment] = YAML::Node(YAML::NodeType::Map);
            current.reset(current[segment]);
            context = section;
            walked += (walked.empty() ? "" : ".") + segment;
            continue;
          }
          // The section is known, the key in it is not: say so of the key, not of the section.
          const std::string path = (walked.empty() ? "" : walked + ".") + segment;
          if (!inner.empty())
            fail(key, "unknown key '" + segments[i + 1] + "' in '" + path + "'" +
                          did_you_mean(segments[i + 1], inner));
          fail(key, "'" + path + "' is not in the model file; --set adds a single value only, to a section the "
                    "file leaves out (--set output.vtk_every=100)");
        }
        std::vector<std::string> candidates(known.begin(), known.end());
        for (auto it = current.begin(); it != current.end(); ++it)
          if (it->first.IsScalar() &&
              std::find(candidates.begin(), candidates.end(), it->first.Scalar()) == candidates.end())
            candidates.push_back(it->first.Scalar());
        if (walked.empty()) candidates.insert(candidates.end(), parameters.begin(), parameters.end());
        std::string hint = did_you_mean(segment, candidates);
        if (hint.empty() && (walked.empty() || context == "parameters"))
          hint = defined_names_note(parameters, {.none = "the model declares no parameters", .label = "parameters"});
        const std::string what = walked.empty()              ? "unknown parameter or key '"
                                 : context == "parameters" ? "unknown parameter '"
                                                           : "unknown key '";
        fail(key, what + segment + "' in " + where + hint);
      }
      context = context.empty() ? segment : context + "." + segment;
    } else if (current.IsSequence()) {
      std::optional<std::size_t> index = parse_index(segment);
      std::vector<std::string> names;
      if (!index) {
        for (std::size_t k = 0; k < current.size(); ++k) {
          const YAML::Node item = current[k];
          if (!item.IsMap()) continue;
          const auto name = member(item, "name");
          if (!name || !name->IsScalar()) continue;
          names.push_back(name->Scalar());
          if (name->Scalar() == segment && !index) index = k;
        }
        if (!index && current.size() == 0) fail(key, where + " is empty; it has no entry '" + segment + "'");
        if (!index)
          fail(key, "expected an index (0 to " + std::to_string(current.size() - 1) + ") or the name of an entry of " +
                        where + "; found '" + segment + "'" + did_you_mean(segment, names));
      }
      if (*index >= current.size())
        fail(key, "index " + segment + " is out of range: " + where + " has " + std::to_string(current.size()) +
                      " entries, numbered from 0");
      current.reset(current[*index]);
      context += "[]";
    } else {
      fail(key, where + " is a single value; it has no key '" + segment + "'");
    }
    walked += (walked.empty() ? "" : ".") + segment;
  }
  refuse_shared(key, walked, current, shared);
  if (current.IsMap() || current.IsSequence())
    fail(key, "'" + key + "' is " + describe(current) + "; --set replaces a single value (give its path to the end, "
              "e.g. gravity.1 or nodes.0.position.2)");
  current = value;
  source.note_override(current, assignment, /*created=*/false);
}

}  // namespace

void apply_overrides(YAML::Node root, std::string_view text, std::span<const std::string> overrides, Source& source) {
  if (overrides.empty()) return;
  const std::vector<SharedNode> shared = shared_nodes(text);
  for (const std::string& assignment : overrides) apply_one(root, assignment, source, shared);
}

}  // namespace catena::io
