// Joints between two nodes or a node and the ground: their axes, component laws and frames.
#include "elements/joint_kinds.hpp"
#include "io/model/list_items.hpp"
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"
#include "io/name_hint.hpp"
#include "io/yaml_schema.hpp"

#include <algorithm>
#include <cmath>

namespace catena::io::reader {

std::string_view read_joint_kind(const Cursor& item) {
  const Cursor kind_cursor = item.get("kind", "the joint kind: " + join(elements::joint_kinds));
  return elements::joint_kinds[read_choice(kind_cursor, elements::joint_kinds, "a joint kind")];
}

fem::Mat3 read_joint_axes(const ModelContext& context, const Cursor& item) {
  fem::Vec3 z = fem::Vec3::UnitZ();
  if (const auto a = item.find("axis")) {
    z = read_vec3(*a, context.parameters, Quantity{"joint axis", ""});
    if (!(z.norm() > 0.0)) a->fail_expected("a nonzero joint axis [x, y, z]");
  }
  z.normalize();
  fem::Vec3 x = std::abs(z.x()) < 0.9 ? fem::Vec3::UnitX() : fem::Vec3::UnitY();
  if (const auto a = item.find("x_axis")) {
    x = read_vec3(*a, context.parameters, Quantity{"joint x axis", ""});
    if (!((x - x.dot(z) * z).norm() > 1e-9 * x.norm()))
      a->fail("expected an x axis not parallel to the joint axis " + format_vector(z) + "; found " + format_vector(x));
  }
  x = (x - x.dot(z) * z).normalized();
  fem::Mat3 J;
  J << x, z.cross(x), z;
  return J;
}

void read_joint_laws(ModelContext& context, const Cursor& c, std::string_view kind, elements::JointDefinition& d) {
  const fem::ParameterTable& parameters = context.parameters;
  c.expect_map("the laws of the joint's components {x, y, z, rx, ry, rz: {prescribed, rate, stiffness, damping, rest, force}}");
  c.check_keys(schema::joint_components);
  for (std::size_t k = 0; k < 6; ++k) {
    const auto law_cursor = c.find(schema::joint_components[k]);
    if (!law_cursor) continue;
    const Cursor& lc = *law_cursor;
    lc.expect_map("a component law {prescribed, rate, stiffness, damping, rest, force}");
    lc.check_keys(schema::joint_law);
    const bool rotation = k >= 3;
    const std::string unit = rotation ? "rad" : "m";
    elements::JointLaw& law = d.laws[k];
    const auto prescribed = lc.find("prescribed"), rate = lc.find("rate");
    const std::array<std::string_view, 4> force_keys{"stiffness", "damping", "rest", "force"};
    for (const std::string_view key : force_keys)
      if (const auto f = lc.find(key); f && (prescribed || rate))
        f->fail("expected either a prescribed motion (prescribed, rate) or a force law (stiffness, damping, rest, "
                "force) for one component; found both");
    if (prescribed && rate) rate->fail("expected either prescribed or rate for one component; found both");
    if (prescribed || rate) {
      law.kind = prescribed ? elements::JointLawKind::Prescribed : elements::JointLawKind::PrescribedRate;
      law.function = read_time_function(prescribed ? *prescribed : *rate, parameters,
                                        Quantity{prescribed ? "prescribed coordinate" : "prescribed rate",
                                                 prescribed ? unit : unit + "/s"});
      continue;
    }
    if (law.kind != elements::JointLawKind::Free)
      lc.fail("component " + std::string(schema::joint_components[k]) + " is held by a " + std::string(kind) +
              " joint; expected a force law (stiffness, damping, rest, force) on a free component only, or a "
              "prescribed motion (prescribed, rate)");
    const std::string force_unit = rotation ? "N m" : "N";
    const std::span<const std::string_view> variables = elements::joint_law_variables;
    for (const std::string_view key : {"stiffness", "damping", "rest"})
      if (const auto f = lc.find(key)) refuse_motion_variables(context, *f, variables, key);
    if (const auto f = lc.find("stiffness"))
      law.stiffness = read_number(*f, parameters, Quantity{"stiffness", force_unit + "/" + unit, Bound::NonNegative});
    if (const auto f = lc.find("damping"))
      law.damping = read_number(*f, parameters, Quantity{"damping", force_unit + " s/" + unit, Bound::NonNegative});
    if (const auto f = lc.find("rest")) law.rest = read_number(*f, parameters, Quantity{"rest value", unit});
    if (const auto f = lc.find("force")) {
      if (std::optional<MotionLaw> motion = read_motion_law(context, *f, variables, "a joint law")) {
        law.law.emplace(std::move(motion->law));
        law.law_inputs = std::move(motion->inputs);
        law.law_sensors = std::move(motion->sensors);
        d.inputs = context.model.inputs;
        d.law_sensors = context.model.law_sensors;
      } else {
        law.function = read_time_function(*f, parameters, Quantity{rotation ? "moment" : "force", force_unit});
      }
    }
    if (law.stiffness > 0.0 || law.damping > 0.0) law.kind = elements::JointLawKind::Spring;
  }
}

namespace {

/// `active_from`, `active_until`: the joint acts in steps whose middle lies in [from, until), and
/// in the initial equilibrium (t = 0) when from <= 0 <= until. An interval that is empty, or ends
/// before the run starts, holds nothing at any time: refused. One that starts after t_end is
/// accepted (a restart may run further).
void read_activation(const ModelContext& context, const Cursor& item, elements::JointDefinition& def) {
  const auto from = item.find("active_from");
  if (from) def.active_from = read_number(*from, context.parameters, key_quantity<"joints[]", "active_from">("time"));
  const auto until = item.find("active_until");
  if (!until) return;
  def.active_until = read_number(*until, context.parameters, key_quantity<"joints[]", "active_until">("time"));
  const std::string found = "; found " + format_number(def.active_until) + " s";
  if (def.active_until < 0.0)
    until->fail("expected an end of the joint's activity at t >= 0 (the run starts at t = 0: a joint released "
                "before it never acts)" + found);
  if (from && !(def.active_until > def.active_from))
    until->fail("expected active_until after active_from = " + format_number(def.active_from) +
                " s (the joint acts during [active_from, active_until))" + found + ": an empty interval, the joint "
                "would never act" + (def.active_until == 0.0 ? " (to hold the initial equilibrium only, give "
                                                                 "active_until: 0 without active_from)" : ""));
}

}  // namespace

constexpr ListSection joints_section{"joints", "a list of joints {name, kind, nodes or node, at, axis}",
                                     "a joint {name, kind, nodes or node, at, axis, laws}", schema::joint};

void read_joints(ModelContext& context) {
  const fem::ParameterTable& parameters = context.parameters;
  for_each_section_item(context, joints_section, [&](const Cursor& item, std::size_t i) {
    const std::string name = context.element_name(item, "joint", i);
    const std::string_view kind = read_joint_kind(item);
    elements::JointDefinition def = elements::joint_definition(kind);

    // Frames: two nodes, or one node and the ground.
    const auto nodes = item.find("nodes");
    const auto single = item.find("node");
    std::optional<fem::NodeId> a;
    fem::NodeId b;
    if (nodes && single) single->fail("expected either nodes: [a, b] or node: b (joined to the ground); found both");
    if (nodes) {
      if (!nodes->is_sequence() || nodes->size() != 2) nodes->fail_expected("the joint's two node names [a, b]");
      a = context.read_node((*nodes)[0]);
      b = context.read_node((*nodes)[1]);
      if (*a == b) (*nodes)[1].fail("expected two different nodes; found '" + context.node_name(b) + "' twice");
    } else {
      b = context.read_node(item.get("node", "the joined node (joined to the ground), or nodes: [a, b]"));
    }
    const fem::Vec3 point = [&] {
      if (const auto p = item.find("at"))
        return read_vec3(*p, parameters, key_quantity<"joints[]", "at">("joint point"));
      return context.reference_position(b);
    }();
    const fem::Mat3 axes = read_joint_axes(context, item);
    if (const auto laws = item.find("laws")) read_joint_laws(context, *laws, kind, def);
    read_activation(context, item, def);

    context.budget.reserve(item, joint_size(), "this joint");
    add_joint(context, name, std::move(def), a, b, point, axes, item);
  });
}

void add_joint(ModelContext& context, const std::string& name, elements::JointDefinition def,
               std::optional<fem::NodeId> a, fem::NodeId b, const fem::Vec3& point, const fem::Mat3& axes,
               const Cursor& item) {
  fem::Model& model = context.model;
  auto frame_on = [&](fem::NodeId n) {
    model.make_frame(n);
    context.record(n).turns = true;
    const fem::NodeState& s = model.initial_state[static_cast<std::size_t>(n.index)];
    const fem::Mat3 R = s.orientation.toRotationMatrix();
    elements::JointFrame f;
    f.node = n;
    f.offset = R.transpose() * (point - s.position);
    f.axes = R.transpose() * axes;
    return f;
  };
  elements::JointFrame fa;
  if (a) {
    fa = frame_on(*a);
  } else {
    fa.offset = point;
    fa.axes = axes;
  }
  const elements::JointFrame fb = frame_on(b);
  const double length = std::max({a ? (context.reference_position(b) - context.reference_position(*a)).norm() : 0.0,
                                  fa.node ? fa.offset.norm() : 0.0, fb.offset.norm(), 1e-3});
  auto& joint =
      model.add_element<elements::Joint>(name, elements::attach_frames(model, fa, fb), fa, fb, std::move(def), length);
  context.joints.emplace_back(&joint, item);
  model.origins.emplace("joint '" + name + "'", item.where());
  context.joint_frames.emplace(name, fem::SensorFrame{fa.node, fa.offset, fa.axes});
  // A prescribed law must start where the joint starts (its coordinates are 0 at t = 0).
  for (std::size_t k = 0; k < 6; ++k) {
    const elements::JointLaw& law = joint.definition().laws[k];
    if (law.kind != elements::JointLawKind::Prescribed || !law.function) continue;
    const double g0 = (*law.function)(0.0);
    if (std::abs(g0) > 1e-12 * std::max(1.0, length))
      item.get("laws", "").fail("joint '" + name + "': component " + std::string(schema::joint_components[k]) +
                                " starts at 0 (the joint is assembled at t = 0) but its prescribed law gives " +
                                format_number(g0) + " at t = 0; expected a law that starts at 0");
  }
}

}  // namespace catena::io::reader
