#pragma once
/// The keys of `analysis`, `output` and `sensors` (rows of io/model_keys.hpp).
#include "io/model_keys_row.hpp"

#include <array>

namespace catena::io::schema {

inline constexpr std::array analysis_keys{
    // context, name, required, unit, default, bound, meaning
    ModelKey{"analysis", "type", "no", "", "`dynamic`", "one of: dynamic, static, eigen, buckling",
             "`dynamic`: time integration; `static`: equilibrium without inertia at a sequence of load levels; "
             "`eigen`: modes of the linearized problem; `buckling`: critical load factor (both below)"},
    ModelKey{"analysis", "integrator", "no", "", "`midpoint`", "one of: midpoint, newmark",
             "`midpoint`: energy-conserving midpoint scheme; `newmark`: trapezoidal rule (Newmark β = ¼, γ = ½), "
             "see fem/time_scheme.hpp; validated but ignored by static analyses"},
    ModelKey{"analysis", "dt", "yes (not in eigen, buckling)", "s", "", "> 0",
             "nominal time step; static: the first load increment"},
    ModelKey{"analysis", "t_end", "yes (not in eigen, buckling)", "s", "", "> 0, at most 2^53 steps of dt",
             "end time; static: the final load level"},
    ModelKey{"analysis", "output_every", "no", "steps", "1", ">= 1, integer",
             "write a row of `energy.csv` and `sensors.csv` every n nominal steps; also a VTK frame, unless "
             "`output.vtk_every` or `output.dt` set their own cadence"},
    ModelKey{"analysis", "dt_min", "no", "s", "0 (= dt/1024)", ">= 0, <= dt", "smallest step after step cutting"},
    ModelKey{"analysis", "max_newton_iterations", "no", "", "25", ">= 1, integer",
             "Newton iterations allowed per step"},
    ModelKey{"analysis", "newton_tolerance", "no", "", "1e-10", "> 0",
             "tolerance on the largest scaled Newton correction"},
    ModelKey{"analysis", "linear_solver", "no", "", "`auto`", "one of: auto, mumps, klu, umfpack, superlu, petsc",
             "sparse direct solver: `auto` (on one rank PETSc's own LU without pivoting in the saddle-point order, "
             "switching to SuperLU for the rest of the run if it meets a zero pivot or a step fails with it; MUMPS "
             "on several: the fastest measured, bench/README.md), `mumps`, `klu` (small models only: 35 s per "
             "factorization on a 1 000-body chain), `umfpack`, `superlu` or `petsc` (the same as `auto` on one "
             "rank)"},
    ModelKey{"analysis", "ramp_gravity", "no", "", "`false`", "true or false",
             "static only: the weights grow with the load parameter, gravity × t / t_end, so that a structure is "
             "followed along its load path under its own weight (load increments can then help it); `false`: "
             "gravity in full from the first increment (a mechanism's equilibrium seldom depends on its size)"},
    ModelKey{"analysis", "initial_equilibrium", "no", "", "`false`", "true or false",
             "dynamic only: start from the static equilibrium under the loads and weights at t = 0 instead of the "
             "given positions (velocities are kept). A model with joints is solved at the full loads as a static "
             "analysis solves a mechanism ([below](#analysis)); otherwise the loads are raised from 0 to 1 in "
             "adaptive increments. `summary.json` reports `equilibrium_increments` and `equilibrium_iterations`, "
             "and a model without an equilibrium (a free body under gravity) stops with a message"},
    ModelKey{"analysis", "modes", "no", "", "10", ">= 1, integer",
             "eigen: number of modes, lowest first; buckling: eigenpairs computed per problem"},
    ModelKey{"analysis", "about", "no", "", "`equilibrium`", "one of: equilibrium, configuration",
             "eigen: `equilibrium`: the static equilibrium at t = 0; `configuration`: the model as given (no static "
             "solve; joints carry no load)"},
    ModelKey{"analysis", "turning_frame", "no", "", "none", "",
             "eigen: a steady rotation `{angular_velocity, centre}` (below): the model is seen from the frame "
             "turning with it, in which the steady motion is an equilibrium under centrifugal forces; supports and "
             "ground joints turn with the frame (a hub)"},
    ModelKey{"analysis", "shift", "no", "Hz", "automatic", "> 0",
             "eigen: the shift-and-invert target, as a frequency: modes nearest it come first. Automatic: just "
             "below zero"},
    ModelKey{"analysis", "export_matrices", "no", "", "`false`", "true or false", "eigen: write K.mtx, D.mtx, M.mtx"},
    ModelKey{"analysis", "mode_frames", "no", "", "24", ">= 2, integer", "eigen: frames per mode in `modes/mode_NN/`"},
    ModelKey{"analysis", "mode_amplitude", "no", "m", "10 % of the model's size", "> 0",
             "eigen: largest displacement in those frames"},
    ModelKey{"analysis", "load_factor_max", "no", "", "2", "> 0",
             "buckling: the path is followed up to this load factor"},
    ModelKey{"analysis", "increments", "no", "", "20", ">= 1, integer", "buckling: equal increments of the path"},
    ModelKey{"analysis", "preload", "no", "", "0", ">= 0, < load_factor_max",
             "buckling: load factor of the state the linear problem is about"},

    ModelKey{"analysis", "objective", "no", "", "none", "",
             "dynamic and static: a scalar of the run `{integrand, final}` (below), reported in `summary.json` "
             "(`objective`) and differentiated with `--sensitivity` (docs/sensitivity.md)"},

    ModelKey{"analysis.objective", "integrand", "no", "", "", "",
             "an expression of the sensors' names, `t` and the parameters, integrated over the run by the "
             "trapezoidal rule on every time element: Σ h/2 (g(t_n) + g(t_n+1))"},
    ModelKey{"analysis.objective", "final", "no", "", "", "",
             "an expression of the same names, added at the run's end"},

    ModelKey{"analysis.turning_frame", "angular_velocity", "yes", "rad/s", "", "",
             "`[Ωx, Ωy, Ωz]`: the frame's steady angular velocity, global axes"},
    ModelKey{"analysis.turning_frame", "centre", "no", "m", "origin", "", "`[x, y, z]`: the centre of the rotation"},

    ModelKey{"output", "checkpoint_every", "no", "steps", "0", ">= 0, integer",
             "write a checkpoint `checkpoint_<step>.ckpt` to the output directory every n nominal steps (and when "
             "SIGINT or SIGTERM stops the run); 0: none. The newest three are kept; `catena run --restart FILE` "
             "continues from one (README, \"Long runs\")"},
    ModelKey{"output", "vtk_every", "no", "steps", "`analysis.output_every`", ">= 1, integer",
             "write a VTK frame every n nominal steps"},
    ModelKey{"output", "dt", "no", "s", "", "> 0",
             "write a VTK frame at the first nominal step that reaches each multiple of `dt`; not together with "
             "`vtk_every`"},
    ModelKey{"output", "scene", "no", "", "`true`", "true or false",
             "write the scene, `scene.pvd` and `scene_NNNNN.vtu` at the VTK frames: rigid bodies, joints and beams "
             "as geometry (\"ParaView output\"); `false`: none"},
    ModelKey{"output", "reactions", "no", "", "`step_average`", "step_average or instantaneous",
             "dynamic: joint reactions in `sensors.csv` and the VTK frames after t = 0, `step_average`: the mean "
             "over the step ending at the row's time (the scheme's own multiplier, of the time t − Δt/2), "
             "`instantaneous`: at the row's time (a velocity projection and two extra Newton solves per row or frame; "
             "see `joints`)"},
    ModelKey{"output", "deflection_frame", "no", "", "none", "a frame node",
             "a node whose frame's rigid motion is taken out of every node's displacement, for the ParaView scene's "
             "`deflection` (global components) and `deflection_local` (along that node's current axes): x − x_f − "
             "R_f R_f0ᵀ (X − X_f0), X the positions at t = 0, f the node (\"ParaView output\" below)"},
    ModelKey{"sensors[]", "name", "yes", "", "", "no commas, quotes or line breaks; not reserved (Conventions)",
             "unique column name"},
    ModelKey{"sensors[]", "node", "one of `node`, `element`, `set` and `beam`", "", "", "", "the node measured"},
    ModelKey{"sensors[]", "element", "one of `node`, `element`, `set` and `beam`", "", "", "",
             "the element measured (its element name, e.g. `cantilever_1`)"},
    ModelKey{"sensors[]", "beam", "one of `node`, `element`, `set` and `beam`", "", "", "",
             "a point along a beam (its name in `beams`), at `at`: a node quantity interpolated between the nodes "
             "on either side, an element field between the middles of the elements on either side (below)"},
    ModelKey{"sensors[]", "at", "with `beam`", "m", "", ">= 0, <= the beam's length",
             "the point's distance along the beam from its first node (`from`), in the reference configuration "
             "(the sum of its elements' lengths)"},
    ModelKey{"sensors[]", "set", "one of `node`, `element`, `set` and `beam`", "", "", "",
             "a set (see `sets`): one sensor per member, named `<name>_<member>` (columns in the set's order)"},
    ModelKey{"sensors[]", "quantity", "yes", "", "",
             "node: one of position, displacement, velocity, rotation, orientation, angular_velocity; element: a "
             "field",
             "node: `position` [m], `displacement` [m] (from the reference position), `velocity` [m/s], `rotation` "
             "[rad], `orientation` or `angular_velocity` [rad/s]; element: a field name (below)"},
    ModelKey{"sensors[]", "component", "node sensors", "", "", "one of: x, y, z (`orientation`: also w)",
             "the component of the chosen frame"},
    ModelKey{"sensors[]", "frame", "no (node sensors)", "", "global", "",
             "the frame the value is expressed in (below): `<node>`, `{node: <node>}`, `{body: <rigid body>}` or "
             "`{joint: <joint>}`"},
    ModelKey{"sensors[]", "offset", "no (node sensors of frame nodes)", "m", "`[0, 0, 0]`", "",
             "a point fixed to the node, from it in its axes: position, displacement and velocity are that "
             "point's (x + R c, v + ω × R c), rotations the node's; a law may read it (a body's tip)"},
    ModelKey{"sensors[]", "scale", "no", "", "1", "",
             "a factor on the value (a number or an expression of parameters): a normalization, `scale: 1/L`, or "
             "another unit, `scale: 180/pi`"},

    // A sensor's frame given as a mapping: exactly one of these.
    ModelKey{"sensors[].frame", "node", "one of `node`, `body` and `joint`", "", "", "",
             "origin at the node, the node's axes (turning with it)"},
    ModelKey{"sensors[].frame", "body", "one of `node`, `body` and `joint`", "", "", "",
             "a rigid body's frame: origin at its centre of mass, the body axes"},
    ModelKey{"sensors[].frame", "joint", "one of `node`, `body` and `joint`", "", "", "",
             "the joint's frame A: origin at the joint point, the joint axes"},
};

}  // namespace catena::io::schema
