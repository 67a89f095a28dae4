#include "io/model/model_context.hpp"

#include "io/name_hint.hpp"

namespace catena::io::reader {

fem::NodeId ModelContext::add_node(const std::string& name, const fem::Vec3& position, const Cursor& cursor, int line,
                                   fem::NodeKind kind) {
  const fem::NodeId id = model.add_node(name, position, kind);
  node_lines.emplace(name, line);
  node_ids.emplace(name, id);
  nodes.push_back(NodeRecord{.cursor = cursor});
  return id;
}

std::optional<Cursor> ModelContext::list_section(std::string_view key, std::string_view what) const {
  auto c = root.find(key);
  if (!c || c->node().IsNull()) return std::nullopt;
  c->expect_sequence(what);
  return c;
}

std::string ModelContext::name_at(const Cursor& c, std::string_view what) const {
  return io::read_name(c, parameters, what);
}

fem::NodeId ModelContext::read_node(const Cursor& c) const {
  const std::string name = name_at(c, "a node name");
  if (const auto it = node_ids.find(name); it != node_ids.end()) return it->second;
  std::vector<std::string> names;
  for (const fem::Node& node : model.nodes) names.push_back(node.name);
  c.fail("unknown node '" + name + "'" +
         unknown_name_hint(name, names, {.list_at_most = 12, .counted = "nodes are defined"}));
}

const fem::Element& ModelContext::read_element(const Cursor& c) const {
  const std::string name = name_at(c, "an element name");
  std::vector<std::string> names;
  for (const auto& e : model.elements) {
    if (e->name() == name) return *e;
    names.push_back(e->name());
  }
  c.fail("unknown element '" + name + "'" +
         unknown_name_hint(name, names,
                           {.none = "the model has no elements", .list_at_most = 12, .counted = "elements are defined"}));
}

const fem::NamedSet& ModelContext::read_set(const Cursor& c, std::string_view kind) const {
  const std::string name = name_at(c, "a set name");
  const auto it = set_index.find(name);
  if (it == set_index.end()) {
    std::vector<std::string> names;
    for (const fem::NamedSet& s : model.sets) names.push_back(s.name);
    const std::string none = "the model has no sets" + std::string(kind.empty() ? "" : " of ") + std::string(kind);
    c.fail("unknown set '" + name + "'" + unknown_name_hint(name, names, {.none = none}));
  }
  const fem::NamedSet& set = model.sets[it->second];
  const std::string_view has = set.nodes.empty() ? "elements" : "nodes";
  if (!kind.empty() && kind != has)
    c.fail("set '" + name + "' is a set of " + std::string(has) + "; expected a set of " + std::string(kind));
  return set;
}

std::vector<fem::NodeId> ModelContext::target_nodes(const Cursor& item, std::string_view what) const {
  const auto node = item.find("node");
  const auto set = item.find("set");
  if (node && set) set->fail("expected either a node or a set in one " + std::string(what) + "; found both");
  if (set) return read_set(*set, "nodes").nodes;
  return {read_node(item.get("node", "the node (or a set of nodes)"))};
}

void ModelContext::claim_element_name(const std::string& name, const Cursor& c) {
  if (const auto it = element_lines.find(name); it != element_lines.end())
    c.fail("duplicate element name '" + name + "' (first used on line " + std::to_string(it->second) +
           "); expected a new name");
  element_lines.emplace(name, c.node().Mark().line + 1);
  // For messages about the element found after reading (a beam collapsing in a step).
  model.origins.emplace(fem::element_origin_key(name), c.where());
}

std::string ModelContext::element_name(const Cursor& item, std::string_view prefix, std::size_t index) {
  const auto c = item.find("name");
  const std::string name = c ? name_at(*c, "an element name") : std::string(prefix) + "_" + std::to_string(index);
  claim_element_name(name, c ? *c : item);
  return name;
}

std::vector<std::string> ModelContext::element_names(const Cursor& item, std::string_view prefix, std::size_t index,
                                                     std::span<const fem::NodeId> members) {
  if (!item.find("set")) return {element_name(item, prefix, index)};
  const auto c = item.find("name");
  const std::string base = c ? name_at(*c, "an element name") : std::string(prefix) + "_" + std::to_string(index);
  std::vector<std::string> names;
  for (const fem::NodeId node : members) {
    names.push_back(base + "_" + node_name(node));
    claim_element_name(names.back(), c ? *c : item);
  }
  return names;
}

void ModelContext::check_two_ends(const Cursor& where, const Cursor& second, fem::NodeId a, fem::NodeId b,
                                  std::string_view element) const {
  if (a == b) second.fail("expected two different nodes; found '" + node_name(a) + "' twice");
  const double distance = (reference_position(b) - reference_position(a)).norm();
  if (!(distance > 0.0))
    where.fail("expected nodes at distinct positions (a " + std::string(element) + " of non-zero length); found '" +
               node_name(a) + "' and '" + node_name(b) + "' at the same point");
}

}  // namespace catena::io::reader
