#include "io/scene_writer.hpp"

#include "fem/deflection.hpp"
#include "io/output_directory.hpp"
#include "io/pvd_index.hpp"
#include "io/scene_layout.hpp"
#include "io/vtk_module.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>
#include <string_view>
#include <stdexcept>

namespace catena::io {

namespace fs = std::filesystem;

struct SceneWriter::Impl {
  Impl(fs::path dir, const fem::Model& m) : directory(std::move(dir)), model(m), index(directory / index_file_name, true) {}

  fs::path directory;
  const fem::Model& model;
  PvdIndex index;
  scene::SceneLayout layout;
  std::unique_ptr<vtk::GridEncoder> grid;

  double* field(scene::SceneField f) const { return grid->point_field(static_cast<std::size_t>(f)); }
  void write(const solvers::Frame& frame);
};

namespace {

void set3(double* array, std::size_t point, const fem::Vec3& v) {
  for (int c = 0; c < 3; ++c) array[3 * point + static_cast<std::size_t>(c)] = v[c];
}

/// Writes an element's end values at its line's own points (end k: the line's point k).
class EndValuesAtPoints final : public fem::EndValueSink {
 public:
  EndValuesAtPoints(double* force, double* moment, std::size_t first_point)
      : force_(force), moment_(moment), first_(first_point) {}
  void set(std::size_t end, std::string_view field, const fem::Vec3& value) override {
    if (field == "section_force") set3(force_, first_ + end, value);
    if (field == "section_moment") set3(moment_, first_ + end, value);
  }

 private:
  double* force_;
  double* moment_;
  std::size_t first_;
};

}  // namespace

void SceneWriter::Impl::write(const solvers::Frame& frame) {
  if (frame.states.size() != model.nodes.size())
    throw std::invalid_argument("VTK scene: frame at t = " + format_double(frame.t) + " has " +
                                std::to_string(frame.states.size()) + " node states, the model " +
                                std::to_string(model.nodes.size()) + " nodes");
  using scene::SceneField;
  double* const x = grid->points();
  double* const displacement = field(SceneField::Displacement);
  double* const velocity = field(SceneField::Velocity);
  std::optional<fem::DeflectionFrame> relative_to;
  if (layout.deflection) {
    const auto f = static_cast<std::size_t>(model.analysis.deflection_frame->index);
    relative_to.emplace(model.nodes[f].reference_position, model.initial_state[f].orientation, frame.states[f]);
  }
  // Every point moves rigidly with its node: x + R c, v + ω × R c.
  for (std::size_t p = 0; p < layout.anchors.size(); ++p) {
    const scene::Anchor& a = layout.anchors[p];
    const fem::NodeState& s = frame.states[a.node];
    const fem::Vec3 arm = s.orientation * a.offset;
    const fem::Vec3 position = s.position + arm;
    set3(x, p, position);
    set3(displacement, p, position - layout.reference[p]);
    set3(velocity, p, s.velocity + s.angular_velocity.cross(arm));
    if (relative_to) {
      const fem::Deflection d = relative_to->of(layout.reference[p], position);
      set3(field(SceneField::Deflection), p, d.global);
      set3(field(SceneField::DeflectionLocal), p, d.local);
    }
  }
  for (const scene::ScenePoints& line : layout.lines) {
    EndValuesAtPoints at_points(field(SceneField::SectionForce), field(SceneField::SectionMoment), line.first_point);
    model.elements[line.element]->end_values(frame.states, at_points);
  }
  const std::array<double*, 3> axes{field(SceneField::JointAxis1), field(SceneField::JointAxis2),
                                    field(SceneField::JointAxis3)};
  for (const scene::ScenePoints& joint : layout.joints)
    if (const auto J = model.elements[joint.element]->output_axes(frame.states))
      for (int k = 0; k < 3; ++k) set3(axes[static_cast<std::size_t>(k)], joint.first_point, J->col(k));

  const long frame_index = index.n_frames();
  const std::string name = frame_file_name(frame_index);
  // The index lists the .vtu only once it is complete.
  if (std::string error = vtk::write_grid(*grid, directory / name, frame.t); !error.empty())
    throw OutputError(error);
  index.add(frame.t, name);
}

SceneWriter::SceneWriter(fs::path directory, const fem::Model& model)
    : impl_(std::make_unique<Impl>(std::move(directory), model)) {
  Impl& m = *impl_;
  create_output_directory(m.directory);
  m.layout = scene::scene_layout(model);
  m.grid = vtk::create_grid_encoder(m.layout.grid);
  double* radius = m.field(scene::SceneField::SectionRadius);
  std::copy(m.layout.section_radius.begin(), m.layout.section_radius.end(), radius);
  // Section values exist at the lines' points only: NaN elsewhere, for good (header).
  const std::size_t n_values = 3 * m.layout.anchors.size();
  for (const scene::SceneField f : {scene::SceneField::SectionForce, scene::SceneField::SectionMoment})
    std::fill(m.field(f), m.field(f) + n_values, std::numeric_limits<double>::quiet_NaN());
}

SceneWriter::~SceneWriter() = default;

void SceneWriter::on_frame(const solvers::Frame& frame) {
  if (frame.vtk) impl_->write(frame);
}

void SceneWriter::on_checkpoint(const solvers::IntegratorState&) { flush_index(); }

void SceneWriter::flush_index() { impl_->index.flush(); }

long SceneWriter::n_frames() const { return impl_->index.n_frames(); }

void SceneWriter::resume(long frames, double last_frame_t) {
  std::error_code ec;
  if (fs::exists(impl_->directory / index_file_name, ec))
    impl_->index.cut_back_to(frames, last_frame_t);
  else
    impl_->index.continue_from(frames);
}

std::string SceneWriter::frame_file_name(long index) {
  char name[32];
  std::snprintf(name, sizeof name, "scene_%05ld.vtu", index);
  return name;
}

}  // namespace catena::io
