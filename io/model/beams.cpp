// Beams, each subdivided into elements along generated nodes, and the loads distributed along
// them.
#include "elements/nodal_load.hpp"
#include "io/model/list_items.hpp"
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"
#include "io/name_hint.hpp"
#include "io/yaml_schema.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

namespace catena::io::reader {

namespace {

/// A beam's section with its damping time and mass coupling.
elements::BeamSection read_section_of_beam(const ModelContext& context, const Cursor& item) {
  elements::BeamSection s = read_beam_section(context, item);
  if (const auto eta = item.find("damping_time"))
    s.damping_time = read_number(*eta, context.parameters,
                                 key_quantity<"beams[]", "damping_time">("damping time", Bound::NonNegative));
  if (const auto mass = item.find("mass")) {
    static constexpr std::array<std::string_view, 3> kinds{"lumped", "mixed", "consistent"};
    s.mass_coupling = 0.5 * static_cast<double>(read_choice(*mass, kinds, "a beam mass: lumped, mixed or consistent"));
  }
  return s;
}

/// Orientation: a vector in the local x-y plane, not along the chord.
fem::Vec3 read_orientation(const ModelContext& context, const Cursor& item, const fem::Vec3& chord) {
  if (const auto o = item.find("orientation")) {
    const fem::Vec3 orientation = read_vec3(*o, context.parameters, Quantity{"orientation vector", ""});
    if (!(orientation.cross(chord).norm() > 1e-9 * orientation.norm() * chord.norm()))
      o->fail("expected an orientation vector not parallel to the beam's axis " + format_vector(chord / chord.norm()) +
              " (a vector in the local x-y plane); found " + format_vector(orientation));
    return orientation;
  }
  const fem::Vec3 orientation = fem::Vec3::UnitZ().cross(chord);
  return orientation.norm() > 1e-9 * chord.norm() ? orientation : fem::Vec3::UnitY();
}

/// A circular arc: `arc: {centre, angle, axis}` of a beam entry.
struct Arc {
  fem::Vec3 centre;
  fem::Vec3 axis;  ///< unit
  double angle = 0.0;
  /// The point at angle θ along the arc from `start` (right-hand turn about the axis through the centre).
  [[nodiscard]] fem::Vec3 point(const fem::Vec3& start, double theta) const {
    return centre + Eigen::AngleAxisd(theta, axis) * (start - centre);
  }
  [[nodiscard]] fem::Quaternion turn(double theta) const { return fem::Quaternion(Eigen::AngleAxisd(theta, axis)); }
};

/// The `arc` mapping, checked against the start point `start` (the `from` node).
Arc read_arc(const ModelContext& context, const Cursor& c, const fem::Vec3& start) {
  if (!c.is_map()) c.fail_expected("an arc {centre: [x, y, z], angle, axis: [x, y, z]}");
  const fem::ParameterTable& parameters = context.parameters;
  Arc arc;
  const Cursor centre = c.get("centre", "the centre of the arc [m], [x, y, z]");
  arc.centre = read_vec3(centre, parameters, key_quantity<"beams[].arc", "centre">("arc centre"));
  const Cursor angle = c.get("angle", "the angle the arc turns about its axis [rad] (e.g. \"45 deg\")");
  arc.angle = read_number(angle, parameters, key_quantity<"beams[].arc", "angle">("arc angle"));
  if (!(arc.angle != 0.0 && std::abs(arc.angle) < 2.0 * std::numbers::pi))
    angle.fail("expected an arc angle with 0 < |angle| < 360 deg; found " + format_number(arc.angle) + " rad");
  arc.axis = fem::Vec3::UnitZ();
  std::optional<Cursor> axis_cursor = c.find("axis");
  if (axis_cursor) {
    arc.axis = read_vec3(*axis_cursor, parameters, key_quantity<"beams[].arc", "axis">("arc axis"));
    if (!(arc.axis.norm() > 0.0)) axis_cursor->fail("expected a nonzero arc axis; found [0, 0, 0]");
    arc.axis.normalize();
  }
  const fem::Vec3 radius = start - arc.centre;
  const double r = radius.norm();
  if (!(r > 1e-12 * std::max(1.0, arc.centre.norm())))
    centre.fail("the arc's centre is the `from` node " + format_vector(start) +
                "; expected a centre at a nonzero radius from it");
  if (std::abs(arc.axis.dot(radius)) > 1e-9 * r)
    (axis_cursor ? *axis_cursor : c)
        .fail("expected an arc axis " + format_vector(arc.axis) + " perpendicular to the radius " +
              format_vector(radius) + " (the `from` node minus the centre)" +
              (axis_cursor ? "" : "; the axis defaults to [0, 0, 1]: give `axis`"));
  return arc;
}

/// A beam of `n` elements: n − 1 generated frame nodes, n elements; reserved before they are.
void reserve_beam(ModelContext& context, const Cursor& count, int n) {
  context.budget.reserve(count, node_size(true).times(n - 1) + two_frame_element_size().times(n),
                         std::to_string(n) + " elements");
}

}  // namespace

constexpr ListSection beams_section{
    "beams", "a list of beams {name, nodes, section}",
    "a beam {name, nodes or from/to/elements (or from/arc/elements), section or material and shape, orientation}",
    schema::beam};

void read_beams(ModelContext& context) {
  const fem::ParameterTable& parameters = context.parameters;
  fem::Model& model = context.model;
  for_each_section_item(context, beams_section, [&](const Cursor& item, std::size_t) {
    const Cursor name_cursor = item.get("name", "the beam's name; its elements and generated nodes are named after it");
    const std::string name = context.name_at(name_cursor, "a beam name");
    const int line = name_cursor.node().Mark().line + 1;
    if (const auto it = context.beams.find(name); it != context.beams.end())
      name_cursor.fail("duplicate beam name '" + name + "' (first defined on line " + std::to_string(it->second.line) +
                       "); expected a new name");

    // Ends, and the number of elements.
    const auto nodes = item.find("nodes");
    const auto from = item.find("from");
    const auto to = item.find("to");
    const auto count = item.find("elements");
    const auto arc_cursor = item.find("arc");
    fem::NodeId a, b;
    int n = 1;
    std::optional<Arc> arc;
    if (nodes && !arc_cursor) {
      if (from || to || count)
        (from ? *from : to ? *to : *count).fail("expected either nodes: [a, b] or from, to and elements; found both");
      if (!nodes->is_sequence() || nodes->size() != 2) nodes->fail_expected("the beam's two node names [a, b]");
      a = context.read_node((*nodes)[0]);
      b = context.read_node((*nodes)[1]);
      context.check_two_ends(*nodes, (*nodes)[1], a, b, "beam");
    } else if (arc_cursor) {
      if (nodes) nodes->fail("expected either nodes: [a, b] or from, arc and elements; found both");
      if (const auto o = item.find("offsets")) o->fail("offsets are not available on an arc; expected no `offsets`");
      if (const auto o = item.find("orientation"))
        o->fail("an arc's section axes follow the curve (local z along the arc's axis); expected no `orientation`");
      const Cursor from_cursor = item.get("from", "the node at the arc's start");
      a = context.read_node(from_cursor);
      const Cursor count_cursor = item.get("elements", "the number of elements along the arc");
      n = read_integer(count_cursor, parameters, "elements along the arc", 1);
      reserve_beam(context, count_cursor, n);
      arc = read_arc(context, *arc_cursor, context.reference_position(a));
      const fem::Vec3 Xa = context.reference_position(a);
      const fem::Vec3 end = arc->point(Xa, arc->angle);
      if (to) {
        b = context.read_node(*to);
        const fem::Vec3 Xb = context.reference_position(b);
        const double r = (Xa - arc->centre).norm();
        if ((Xb - end).norm() > 1e-9 * r)
          to->fail("the node '" + context.node_name(b) + "' at " + format_vector(Xb) + " is not the arc's end " +
                   format_vector(end) + " (off by " + format_number((Xb - end).norm()) +
                   "); expected the node where the arc ends, or no `to` (a generated end node '" + name + "_end')");
        context.check_two_ends(*to, *to, a, b, "beam");
      } else {
        const std::string end_name = name + "_end";
        if (const auto it = context.node_lines.find(end_name); it != context.node_lines.end())
          name_cursor.fail("the arc's generated end node '" + end_name + "' has the name of a node defined on line " +
                           std::to_string(it->second) + "; expected a beam name whose generated names are new");
        b = context.add_node(end_name, end, name_cursor, line, fem::NodeKind::Frame);
        model.initial_state[static_cast<std::size_t>(b.index)].orientation =
            arc->turn(arc->angle) * model.initial_state[static_cast<std::size_t>(a.index)].orientation;
      }
    } else {
      if (!from && !to) static_cast<void>(item.get("nodes", "the beam's two nodes [a, b], or from, to and elements"));
      const Cursor from_cursor = item.get("from", "the node at the beam's start");
      const Cursor to_cursor = item.get("to", "the node at the beam's end");
      a = context.read_node(from_cursor);
      b = context.read_node(to_cursor);
      if (count) n = read_integer(*count, parameters, "elements along the beam", 1);
      reserve_beam(context, count ? *count : item, n);
      context.check_two_ends(to_cursor, to_cursor, a, b, "beam");
    }

    const elements::BeamSection section = read_section_of_beam(context, item);

    // Rigid eccentric connections: the beam's end points from its end nodes, global axes.
    std::array<fem::Vec3, 2> offsets{fem::Vec3::Zero(), fem::Vec3::Zero()};
    if (const auto o = item.find("offsets")) {
      if (!o->is_sequence() || o->size() != 2)
        o->fail_expected("the offsets [m] of the beam's two end points from its end nodes, [[x, y, z], [x, y, z]]");
      for (std::size_t k = 0; k < 2; ++k)
        offsets[k] = read_vec3((*o)[k], parameters, key_quantity<"beams[]", "offsets">("end offset"));
    }

    const fem::Vec3 Xa = context.reference_position(a) + offsets[0];
    const fem::Vec3 chord = context.reference_position(b) + offsets[1] - Xa;
    if (!(chord.norm() > 0.0)) name_cursor.fail("the beam's end points coincide; expected a beam of nonzero length");
    const fem::Vec3 orientation = arc ? fem::Vec3::Zero() : read_orientation(context, item, chord);

    // Nodes: the ends become frame nodes; n − 1 generated nodes between them.
    model.make_frame(a);
    model.make_frame(b);
    BeamDefinition def;
    def.line = line;
    def.chain.push_back(a);
    // Copies: add_node below grows initial_state, which moves its elements.
    const fem::Quaternion qa = model.initial_state[static_cast<std::size_t>(a.index)].orientation;
    const fem::Quaternion qb = model.initial_state[static_cast<std::size_t>(b.index)].orientation;
    const fem::Quaternion q_mid = qa.angularDistance(qb) < 1e-12 ? qa : fem::Quaternion::Identity();
    // Along an arc, the triads follow the curve (a's turned about the axis by the node's angle)
    // when b's is a's turned by the whole angle; the identity otherwise.
    const bool triads_follow = arc && (arc->turn(arc->angle) * qa).angularDistance(qb) < 1e-12;
    for (int k = 1; k < n; ++k) {
      const std::string node_name = name + "_" + std::to_string(k);
      if (const auto it = context.node_lines.find(node_name); it != context.node_lines.end())
        name_cursor.fail("the beam's generated node '" + node_name + "' has the name of a node defined on line " +
                         std::to_string(it->second) + "; expected a beam name whose generated names are new");
      const double s = static_cast<double>(k) / n;
      const fem::Vec3 position = arc ? arc->point(Xa, s * arc->angle) : fem::Vec3(Xa + s * chord);
      const fem::NodeId id = context.add_node(node_name, position, name_cursor, line, fem::NodeKind::Frame);
      model.initial_state[static_cast<std::size_t>(id.index)].orientation =
          !arc ? q_mid : triads_follow ? fem::Quaternion(arc->turn(s * arc->angle) * qa) : fem::Quaternion::Identity();
      def.chain.push_back(id);
    }
    def.chain.push_back(b);

    // Elements.
    for (int k = 0; k < n; ++k) {
      const std::string element = n == 1 ? name : name + "_" + std::to_string(k + 1);
      context.claim_element_name(element, name_cursor);
      const fem::NodeId p = def.chain[static_cast<std::size_t>(k)];
      const fem::NodeId q = def.chain[static_cast<std::size_t>(k) + 1];
      const std::array<fem::Vec3, 2> ends{k == 0 ? offsets[0] : fem::Vec3::Zero(),
                                          k == n - 1 ? offsets[1] : fem::Vec3::Zero()};
      // Along an arc: local z along the axis, local y = axis × chord (towards the centre for a
      // positive angle), so the section turns with the curve and does not twist.
      const fem::Vec3 element_orientation =
          arc ? fem::Vec3(arc->axis.cross(context.reference_position(q) - context.reference_position(p)))
              : orientation;
      const auto& beam = model.add_element<elements::Beam>(element, model.attach(p), model.attach(q), section,
                                                           element_orientation, ends);
      def.elements.push_back(&beam);
      const double L = beam.length();
      for (const fem::NodeId end : {p, q}) {
        context.record(end).mass += section.rhoA * L / 2.0;
        context.record(end).turns = true;
      }
    }
    model.element_groups.push_back({name, {}, {def.elements.begin(), def.elements.end()}});
    context.beams.emplace(name, std::move(def));
  });
}

constexpr ListSection beam_loads_section{"beam_loads", "a list of distributed beam loads {name, beam, force}",
                                         "a distributed beam load {name, beam, force}", schema::beam_load};

/// Distributed dead forces per unit length along every element of a beam definition, lumped:
/// q L/2 on each end of each element.
void read_beam_loads(ModelContext& context) {
  const fem::ParameterTable& parameters = context.parameters;
  fem::Model& model = context.model;
  for_each_section_item(context, beam_loads_section, [&](const Cursor& item, std::size_t i) {
    const auto name_cursor = item.find("name");
    const std::string name = name_cursor ? context.name_at(*name_cursor, "a load name") : "beam_load_" + std::to_string(i);
    const Cursor beam_cursor = item.get("beam", "the name of a beam definition");
    const std::string beam = context.name_at(beam_cursor, "a beam name");
    const auto it = context.beams.find(beam);
    if (it == context.beams.end()) {
      std::vector<std::string> names;
      for (const auto& entry : context.beams) names.push_back(entry.first);
      beam_cursor.fail("unknown beam '" + beam + "'" +
                       unknown_name_hint(beam, names, {.none = "the model has no beams"}));
    }
    const Cursor force = item.get("force", "the force per unit length [N/m] as [x, y, z], functions of t");
    if (!force.is_sequence() || force.size() != 3)
      force.fail_expected("a force per length [N/m] as a list of 3 numbers or expressions of t [x, y, z]");
    const Quantity component{"force per length component", "N/m"};
    const std::array<fem::Expression, 3> q{read_time_function(force[0], parameters, component),
                                           read_time_function(force[1], parameters, component),
                                           read_time_function(force[2], parameters, component)};
    check_load_in_plane(context, force, q, /*moment=*/false, "force per length");
    const BeamDefinition& def = it->second;
    for (std::size_t e = 0; e < def.elements.size(); ++e) {
      const double half = def.elements[e]->length() / 2.0;
      for (const auto& [end, suffix] : {std::pair{def.chain[e], "_a"}, std::pair{def.chain[e + 1], "_b"}}) {
        const std::string element = name + "_" + def.elements[e]->name() + suffix;
        context.claim_element_name(element, name_cursor ? *name_cursor : item);
        std::array<fem::Expression, 3> g{fem::Expression(q[0].text(), parameters, true),
                                         fem::Expression(q[1].text(), parameters, true),
                                         fem::Expression(q[2].text(), parameters, true)};
        model.add_element<elements::NodalLoad>(element, model.attach(end), std::move(g), elements::LoadKind::Force,
                                               elements::LoadAxes::Global, half);
      }
    }
  });
}

}  // namespace catena::io::reader
