// Named sets of nodes or of elements, which supports, masses, loads and sensors may name instead of
// one node or element.
#include "io/model/list_items.hpp"
#include "io/model/section_readers.hpp"
#include "io/yaml_schema.hpp"

#include <map>

namespace catena::io::reader {

constexpr ListSection sets_section{"sets", "a list of named sets {name, nodes or elements}",
                                   "a set {name, nodes or elements}", schema::set};

/// Node sets are read once every node exists (before supports), element sets once every element
/// but the loads exists (before loads): `element_sets` says which pass this is.
void read_sets(ModelContext& context, bool element_sets) {
  for_each_section_item(context, sets_section, [&](const Cursor& item, std::size_t) {
    const auto nodes = item.find("nodes");
    const auto elements = item.find("elements");
    if (nodes && elements) elements->fail("expected either nodes or elements in one set; found both");
    if (!nodes && !elements) static_cast<void>(item.get("nodes", "the members: nodes: [...] or elements: [...]"));
    if (element_sets != elements.has_value()) return;
    const Cursor name_cursor = item.get("name", "the set's name");
    fem::NamedSet set;
    set.name = context.name_at(name_cursor, "a set name");
    if (const auto it = context.set_lines.find(set.name); it != context.set_lines.end())
      name_cursor.fail("duplicate set name '" + set.name + "' (first defined on line " + std::to_string(it->second) +
                       "); expected a new name");
    const Cursor members = nodes ? *nodes : *elements;
    members.expect_sequence(nodes ? "a list of node names" : "a list of element names");
    std::map<std::string, int> member_lines;
    for_each_item(context, members, [&](const Cursor& member, std::size_t) {
      const std::string member_name =
          nodes ? context.node_name(context.read_node(member)) : context.read_element(member).name();
      if (const auto it = member_lines.find(member_name); it != member_lines.end())
        member.fail("duplicate member '" + member_name + "' of set '" + set.name + "' (first given on line " +
                    std::to_string(it->second) + "); expected each member once");
      member_lines.emplace(member_name, member.node().Mark().line + 1);
      if (nodes) {
        set.nodes.push_back(context.read_node(member));
      } else {
        set.elements.push_back(&context.read_element(member));
      }
    });
    if (member_lines.empty()) members.fail("expected a set with at least one member; found none");
    context.set_lines.emplace(set.name, name_cursor.node().Mark().line + 1);
    context.set_index.emplace(set.name, context.model.sets.size());
    context.model.sets.push_back(std::move(set));
  });
}

}  // namespace catena::io::reader
