#include "io/scene_layout.hpp"

#include "io/scene_shapes.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace catena::io::scene {

namespace {

using fem::Vec3;

/// Attachments closer than this are one point of a body [m].
constexpr double same_point = 1e-9;

/// The `radius` cell value an element sets, 0 if none.
class RadiusCapture final : public fem::CellValueSink {
 public:
  void set(std::string_view field, double value) override {
    if (field == "radius") radius = value;
  }
  double radius = 0.0;
};

class Builder {
 public:
  explicit Builder(const fem::Model& model) : model_(model) {}

  SceneLayout build() {
    collect_attachments();
    layout_.grid.point_fields = {{"displacement", 3}, {"velocity", 3},      {"section_radius", 1},
                                 {"joint_axis_1", 3}, {"joint_axis_2", 3},  {"joint_axis_3", 3},
                                 {"section_force", 3}, {"section_moment", 3}};
    layout_.deflection = model_.analysis.deflection_frame.has_value();
    if (layout_.deflection) {
      layout_.grid.point_fields.emplace_back("deflection", 3);
      layout_.grid.point_fields.emplace_back("deflection_local", 3);
    }
    layout_.grid.node_arrays = false;
    layout_.grid.cell_offsets.push_back(0);
    for (std::size_t e = 0; e < model_.elements.size(); ++e) {
      const fem::Element& element = *model_.elements[e];
      const fem::Drawing drawing = element.drawing();
      switch (drawing.part) {
        case fem::DrawnAs::Nothing: break;
        case fem::DrawnAs::Beam: add_line(e, ScenePart::Beam); break;
        case fem::DrawnAs::Truss: add_line(e, ScenePart::Truss); break;
        case fem::DrawnAs::RigidBody: add_body(e, drawing); break;
        case fem::DrawnAs::Joint: add_joint(e, drawing.joint_kind); break;
        case fem::DrawnAs::PointMass: {
          const std::size_t point = add_point({node_index(e, drawing.node), Vec3::Zero()}, 0.0);
          add_cell(e, ScenePart::PointMass, vtk::CellShape::Vertex, {point});
          break;
        }
      }
    }
    layout_.grid.cell_labels = {
        {"part", std::move(part_)}, {"element", std::move(element_)}, {"joint_kind", std::move(joint_kind_)}};
    layout_.grid.compressed = layout_.anchors.size() >= vtk::compressed_from_points;
    layout_.grid.fast_compression = true;  // LZ4 (io/scene_writer.hpp says why)
    return std::move(layout_);
  }

 private:
  std::size_t node_index(std::size_t e, fem::NodeId node) const {
    if (node.index < 0 || static_cast<std::size_t>(node.index) >= model_.nodes.size())
      throw std::invalid_argument("element '" + model_.elements[e]->name() + "': node index " +
                                  std::to_string(node.index) + " outside the model's " +
                                  std::to_string(model_.nodes.size()) + " nodes; cannot draw the scene");
    return static_cast<std::size_t>(node.index);
  }

  /// Every element's attachment points, by node, each point once.
  void collect_attachments() {
    attachments_.resize(model_.nodes.size());
    std::vector<fem::AttachmentPoint> points;
    for (std::size_t e = 0; e < model_.elements.size(); ++e) {
      points.clear();
      model_.elements[e]->attachment_points(points);
      for (const fem::AttachmentPoint& p : points) add_once(attachments_[node_index(e, p.node)], p.offset);
    }
  }

  static void add_once(std::vector<Vec3>& offsets, const Vec3& offset) {
    for (const Vec3& o : offsets)
      if ((o - offset).norm() <= same_point) return;
    offsets.push_back(offset);
  }

  std::size_t add_point(const Anchor& anchor, double radius) {
    const fem::NodeState& s = model_.initial_state[anchor.node];
    const Vec3 x0 = model_.nodes[anchor.node].reference_position + s.orientation * anchor.offset;
    layout_.anchors.push_back(anchor);
    layout_.reference.push_back(x0);
    layout_.section_radius.push_back(radius);
    for (int c = 0; c < 3; ++c) layout_.grid.reference_points.push_back(x0[c]);
    return layout_.anchors.size() - 1;
  }

  void add_cell(std::size_t e, ScenePart part, vtk::CellShape shape, std::span<const std::size_t> points) {
    vtk::GridLayout& g = layout_.grid;
    g.cell_shapes.push_back(shape);
    for (const std::size_t p : points) g.cell_points.push_back(static_cast<std::int64_t>(p));
    g.cell_offsets.push_back(static_cast<std::int64_t>(g.cell_points.size()));
    part_.push_back(static_cast<int>(part));
    joint_kind_.push_back(0);
    element_.push_back(static_cast<int>(e));
  }
  void add_cell(std::size_t e, ScenePart part, vtk::CellShape shape, std::initializer_list<std::size_t> points) {
    add_cell(e, part, shape, std::span<const std::size_t>(points.begin(), points.size()));
  }

  void add_line(std::size_t e, ScenePart part) {
    const fem::Element& element = *model_.elements[e];
    const std::span<const fem::NodeId> nodes = element.cell_nodes();
    if (nodes.size() < 2) return;
    RadiusCapture radius;
    element.cell_values(model_.initial_state, radius);
    double r = radius.radius;
    if (!(r > 0.0)) {
      const Vec3 chord = model_.nodes[node_index(e, nodes.back())].reference_position -
                         model_.nodes[node_index(e, nodes.front())].reference_position;
      r = line_radius_fraction * chord.norm();
    }
    std::vector<std::size_t> points;
    for (const fem::NodeId n : nodes) points.push_back(add_point({node_index(e, n), Vec3::Zero()}, r));
    layout_.lines.push_back({e, points.front(), points.size()});
    add_cell(e, part, points.size() == 2 ? vtk::CellShape::Line : vtk::CellShape::PolyLine, points);
  }

  void add_body(std::size_t e, const fem::Drawing& body) {
    const std::size_t node = node_index(e, body.node);
    // Links: the centre to every attachment on the node, and to the node itself.
    std::vector<Vec3> ends;
    for (const Vec3& a : attachments_[node]) add_once(ends, a);
    add_once(ends, Vec3::Zero());
    std::erase_if(ends, [&](const Vec3& a) { return (a - body.offset).norm() <= same_point; });
    double longest = 0.0;
    for (const Vec3& a : ends) longest = std::max(longest, (a - body.offset).norm());
    const double radius = link_radius_fraction * longest;
    for (const Vec3& a : ends) {
      const std::size_t centre = add_point({node, body.offset}, radius);
      const std::size_t end = add_point({node, a}, radius);
      add_cell(e, ScenePart::BodyLink, vtk::CellShape::Line, {centre, end});
    }
    // Its shape, about the centre.
    const SurfaceMesh mesh = body_surface(body.shape, body.mass, body.inertia);
    const std::size_t first = layout_.anchors.size();
    for (const Vec3& v : mesh.vertices) add_point({node, body.offset + v}, 0.0);
    std::vector<std::size_t> ids;
    for (const auto& face : mesh.faces) {
      ids.clear();
      for (const int v : face) ids.push_back(first + static_cast<std::size_t>(v));
      const auto shape = ids.size() == 3   ? vtk::CellShape::Triangle
                         : ids.size() == 4 ? vtk::CellShape::Quad
                                           : vtk::CellShape::Polygon;
      add_cell(e, ScenePart::BodyShape, shape, ids);
    }
  }

  void add_joint(std::size_t e, int kind) {
    std::vector<fem::AttachmentPoint> points;
    model_.elements[e]->attachment_points(points);
    const auto output = std::find_if(points.begin(), points.end(), [](const auto& p) { return p.output_point; });
    if (output == points.end()) return;
    const std::size_t point = add_point({node_index(e, output->node), output->offset}, 0.0);
    layout_.joints.push_back({e, point, 1});
    add_cell(e, ScenePart::Joint, vtk::CellShape::Vertex, {point});
    joint_kind_.back() = kind;
  }

  const fem::Model& model_;
  SceneLayout layout_;
  std::vector<std::vector<Vec3>> attachments_;  ///< per node: the offsets of its attachment points
  std::vector<int> part_, element_, joint_kind_;  ///< per cell
};

}  // namespace

SceneLayout scene_layout(const fem::Model& model) { return Builder(model).build(); }

}  // namespace catena::io::scene
