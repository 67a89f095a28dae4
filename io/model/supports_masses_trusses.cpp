// Supports, point masses and trusses: the sections that attach to nodes only.
#include "elements/point_mass.hpp"
#include "elements/truss.hpp"
#include "io/model/list_items.hpp"
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"
#include "io/yaml_schema.hpp"

namespace catena::io::reader {

namespace {

constexpr std::array<std::string_view, 7> dof_choices{"x", "y", "z", "rx", "ry", "rz", "all"};

/// `dofs`: one component, `all`, or a list of components; absent: the three translations.
std::array<bool, 6> read_fixed_components(const Cursor& item) {
  std::array<bool, 6> fix{true, true, true, false, false, false};
  const auto dofs = item.find("dofs");
  if (!dofs) return fix;
  fix = {};
  if (dofs->is_scalar()) {
    const std::size_t c = read_choice(*dofs, dof_choices, "a component or all");
    if (c == 6) {
      fix = {true, true, true, true, true, true};
    } else {
      fix[c] = true;
    }
  } else {
    if (!dofs->is_sequence() || dofs->size() == 0)
      dofs->fail_expected("a list of components from x, y, z, rx, ry, rz (or all)");
    for (std::size_t k = 0; k < dofs->size(); ++k) fix[read_choice((*dofs)[k], dof_names, "a component")] = true;
  }
  return fix;
}

}  // namespace

constexpr ListSection supports_section{"supports", "a list of supports {node, dofs}", "a support {node, dofs}",
                                       schema::support};

void read_supports(ModelContext& context) {
  fem::Model& model = context.model;
  for_each_section_item(context, supports_section, [&](const Cursor& item, std::size_t) {
    const std::vector<fem::NodeId> nodes = context.target_nodes(item, "support");
    const std::array<bool, 6> fix = read_fixed_components(item);
    for (const fem::NodeId node : nodes) {
      if (fix[3] || fix[4] || fix[5]) model.make_frame(node);
      for (int c = 0; c < 6; ++c) {
        if (!fix[static_cast<std::size_t>(c)]) continue;
        if (c < 3) {
          model.fix(node, c);
        } else {
          model.fix_rotation(node, c - 3);
        }
        context.record(node).fixed[static_cast<std::size_t>(c)] = true;
      }
    }
  });
}

constexpr ListSection masses_section{"masses", "a list of point masses {node, mass}", "a point mass {node, mass}",
                                     schema::mass};

void read_masses(ModelContext& context) {
  fem::Model& model = context.model;
  for_each_section_item(context, masses_section, [&](const Cursor& item, std::size_t i) {
    const std::vector<fem::NodeId> nodes = context.target_nodes(item, "mass");
    const std::vector<std::string> names = context.element_names(item, "mass", i, nodes);
    const double m = read_number(item.get("mass", "the mass [kg]"), context.parameters,
                                 key_quantity<"masses[]", "mass">("mass", Bound::Positive));
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      context.record(nodes[k]).mass += m;
      model.add_element<elements::PointMass>(names[k], model.attach(nodes[k]), m);
    }
  });
}

constexpr ListSection trusses_section{"trusses", "a list of trusses {name, nodes, EA}",
                                      "a truss {name, nodes, EA, rest_length}", schema::truss};

void read_trusses(ModelContext& context) {
  fem::Model& model = context.model;
  for_each_section_item(context, trusses_section, [&](const Cursor& item, std::size_t i) {
    const std::string name = context.element_name(item, "truss", i);
    const Cursor ends = item.get("nodes", "the truss's two nodes [a, b]");
    if (!ends.is_sequence() || ends.size() != 2) ends.fail_expected("the truss's two node names [a, b]");
    const fem::NodeId a = context.read_node(ends[0]);
    const fem::NodeId b = context.read_node(ends[1]);
    if (a == b) ends[1].fail("expected two different nodes; found '" + context.node_name(a) + "' twice");
    const double EA = read_number(item.get("EA", "the axial stiffness EA [N]"), context.parameters,
                                  key_quantity<"trusses[]", "EA">("axial stiffness EA", Bound::Positive));
    context.check_two_ends(ends, ends[1], a, b, "truss");
    double rest_length = (context.reference_position(b) - context.reference_position(a)).norm();
    if (const auto l0 = item.find("rest_length"))
      rest_length = read_number(*l0, context.parameters,
                                key_quantity<"trusses[]", "rest_length">("rest length", Bound::Positive));
    model.add_element<elements::Truss>(name, model.attach(a), model.attach(b), elements::TrussSection{EA}, rest_length);
  });
}

}  // namespace catena::io::reader
