// The analysis settings (dynamic, static, eigen, buckling) and the output options.
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"
#include "io/yaml_schema.hpp"

#include <cmath>
#include <numbers>

namespace catena::io::reader {

namespace {

constexpr std::array<std::string_view, 2> integrators{"midpoint", "newmark"};
constexpr std::array<std::string_view, 4> analysis_types{"dynamic", "static", "eigen", "buckling"};
constexpr std::array<std::string_view, 6> linear_solvers{"auto", "mumps", "klu", "umfpack", "superlu", "petsc"};

void read_linearized_settings(ModelContext& context, const Cursor& c) {
  const fem::ParameterTable& parameters = context.parameters;
  fem::LinearizedSettings& l = context.model.analysis.linearized;
  const bool buckling = context.model.analysis.type == fem::AnalysisType::Buckling;
  for (const char* key : {"load_factor_max", "increments", "preload"})
    if (const auto k = c.find(key); k && !buckling) k->fail("expected " + std::string(key) + " only in a buckling analysis");
  for (const char* key : {"about", "turning_frame", "shift", "export_matrices"})
    if (const auto k = c.find(key); k && buckling) k->fail("expected " + std::string(key) + " only in an eigen analysis");
  if (const auto n = c.find("modes")) l.modes = read_integer(*n, parameters, "modes wanted", 1);
  if (const auto about = c.find("about")) {
    static constexpr std::array<std::string_view, 2> points{"equilibrium", "configuration"};
    l.about_equilibrium = read_choice(*about, points, "what to linearize about") == 0;
  }
  if (const auto f = c.find("turning_frame")) {
    f->expect_map("a steady rotation {angular_velocity, centre}");
    f->check_keys(schema::turning_frame);
    l.frame_angular_velocity =
        read_vec3(f->get("angular_velocity", "the frame's angular velocity [rad/s]"), parameters,
                  key_quantity<"analysis.turning_frame", "angular_velocity">("angular velocity"));
    if (const auto p = f->find("centre"))
      l.frame_centre = read_vec3(*p, parameters, key_quantity<"analysis.turning_frame", "centre">("position"));
  }
  if (const auto s = c.find("shift")) {
    // Given as a frequency: the shift-and-invert target is its ω².
    const double f = read_number(*s, parameters, key_quantity<"analysis", "shift">("frequency", Bound::Positive));
    l.shift = std::pow(2.0 * std::numbers::pi * f, 2);
  }
  if (const auto e = c.find("export_matrices")) l.export_matrices = read_bool(*e, "true or false");
  if (const auto n = c.find("mode_frames")) l.mode_frames = read_integer(*n, parameters, "frames per mode", 2);
  if (const auto m = c.find("mode_amplitude"))
    l.mode_amplitude =
        read_number(*m, parameters, key_quantity<"analysis", "mode_amplitude">("mode amplitude", Bound::Positive));
  if (const auto m = c.find("load_factor_max"))
    l.load_factor_max = read_number(*m, parameters, Quantity{"load factor", "", Bound::Positive});
  if (const auto n = c.find("increments")) l.increments = read_integer(*n, parameters, "load increments", 1);
  if (const auto p = c.find("preload")) {
    l.preload = read_number(*p, parameters, Quantity{"load factor", "", Bound::NonNegative});
    if (l.preload >= l.load_factor_max)
      p->fail("expected a preload below load_factor_max = " + format_number(l.load_factor_max) + "; found " + p->found());
  }
}

}  // namespace

void read_analysis(ModelContext& context) {
  const fem::ParameterTable& parameters = context.parameters;
  const Cursor c = context.root.get("analysis", "the analysis settings: type, dt, t_end, ...");
  c.expect_map("analysis settings {type, integrator, dt, t_end, ...}");
  c.check_keys(schema::analysis);
  fem::AnalysisSettings& a = context.model.analysis;
  if (const auto type = c.find("type"))
    a.type = static_cast<fem::AnalysisType>(read_choice(*type, analysis_types, "an analysis type"));
  const bool linearized = a.type == fem::AnalysisType::Eigen || a.type == fem::AnalysisType::Buckling;
  if (linearized) read_linearized_settings(context, c);
  if (const auto integrator = c.find("integrator"))  // validated, but ignored by static analyses
    a.scheme = read_choice(*integrator, integrators, "an integrator") == 0 ? fem::TimeScheme::Midpoint
                                                                             : fem::TimeScheme::Trapezoidal;
  // Eigen and buckling analyses have no time steps (dt and t_end are optional there).
  if (const auto dt = linearized ? c.find("dt") : std::optional<Cursor>(c.get("dt", "the time step [s]")))
    a.dt = read_number(*dt, parameters, key_quantity<"analysis", "dt">("time step", Bound::Positive));
  if (const auto t_end = linearized ? c.find("t_end") : std::optional<Cursor>(c.get("t_end", "the end time [s]"))) {
    a.t_end = read_number(*t_end, parameters, key_quantity<"analysis", "t_end">("end time", Bound::Positive));
    // Steps are counted in whole numbers and their times are k dt: past 2^53 steps a double no
    // longer tells step k from k + 1 (and past 2^63 the count wrapped: t_end 9.3e17 with dt 0.1
    // "completed" after one step).
    constexpr double max_steps = 9007199254740992.0;  // 2^53
    if (!linearized && !(std::ceil(a.t_end / a.dt - 1e-9) <= max_steps))
      t_end->fail("expected an end time of at most 2^53 = 9.0e15 steps of dt = " + format_number(a.dt) +
                  " s (steps and their times must be exact); found " + t_end->found() + ", " +
                  format_number(a.t_end / a.dt) + " steps");
  }
  if (const auto n = c.find("output_every")) a.output_every = read_integer(*n, parameters, "steps between outputs", 1);
  if (const auto dt_min = c.find("dt_min")) {
    a.dt_min = read_number(*dt_min, parameters,
                           key_quantity<"analysis", "dt_min">("minimum time step", Bound::NonNegative));
    if (a.dt_min > a.dt)
      dt_min->fail("expected a minimum time step [s] no larger than dt = " + format_number(a.dt) + "; found " +
                   dt_min->found());
  }
  if (const auto n = c.find("max_newton_iterations"))
    a.max_newton_iterations = read_integer(*n, parameters, "Newton iterations", 1);
  if (const auto tol = c.find("newton_tolerance"))
    a.newton_tolerance = read_number(*tol, parameters, Quantity{"Newton tolerance", "", Bound::Positive});
  if (const auto solver = c.find("linear_solver"))
    a.linear_solver = std::string(linear_solvers[read_choice(*solver, linear_solvers, "a linear solver")]);
  if (const auto ramp = c.find("ramp_gravity")) {
    a.ramp_gravity = read_bool(*ramp, "true or false");
    if (a.ramp_gravity && a.type != fem::AnalysisType::Static)
      ramp->fail("expected ramp_gravity only in a static analysis (t is its load parameter); found true");
  }
  if (const auto eq = c.find("initial_equilibrium")) {
    a.initial_equilibrium = read_bool(*eq, "true or false");
    if (a.initial_equilibrium && a.type == fem::AnalysisType::Static)
      eq->fail("expected initial_equilibrium only in a dynamic analysis (a static analysis is an equilibrium "
               "already); found true");
  }
}

void read_output(ModelContext& context) {
  const auto c = context.root.find("output");
  if (!c) return;
  c->expect_map("output options {vtk_every, dt, checkpoint_every, reactions, deflection_frame, scene}");
  c->check_keys(schema::output);
  const fem::ParameterTable& parameters = context.parameters;
  fem::AnalysisSettings& a = context.model.analysis;
  if (const auto n = c->find("checkpoint_every"))
    a.checkpoint_every = read_integer(*n, parameters, "steps between checkpoints", 0);
  if (const auto n = c->find("vtk_every")) a.vtk_every = read_integer(*n, parameters, "steps between VTK frames", 1);
  if (const auto dt = c->find("dt")) {
    if (c->find("vtk_every"))
      dt->fail("expected either vtk_every (VTK frames by steps) or dt (by time), not both; found both");
    a.vtk_dt =
        read_number(*dt, parameters, key_quantity<"output", "dt">("time between VTK frames", Bound::Positive));
  }
  if (const auto scene = c->find("scene")) a.scene = read_bool(*scene, "whether the scene is written");
  if (const auto r = c->find("reactions")) {
    static constexpr std::array<std::string_view, 2> timings{"step_average", "instantaneous"};
    a.instantaneous_reactions = read_choice(*r, timings, "when reactions are reported") == 1;
    if (a.instantaneous_reactions && a.type != fem::AnalysisType::Dynamic)
      r->fail("expected reactions: instantaneous only in a dynamic analysis (a static increment's reactions are "
              "those of its equilibrium already); found it in a " +
              std::string(analysis_types[static_cast<std::size_t>(a.type)]) + " analysis");
  }
  if (const auto f = c->find("deflection_frame")) {
    const fem::NodeId node = context.read_node(*f);
    if (context.model.nodes[static_cast<std::size_t>(node.index)].kind != fem::NodeKind::Frame)
      f->fail("expected a frame node (one with axes: a node of a beam, a rigid body or a joint, or one given an "
              "orientation); '" +
              context.node_name(node) + "' is a point node, which has no axes to take the rotation from");
    a.deflection_frame = node;
  }
}

}  // namespace catena::io::reader
