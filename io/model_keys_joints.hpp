#pragma once
/// The keys of `joints`, their component laws, and `chains` (rows of io/model_keys.hpp).
#include "io/model_keys_row.hpp"

#include <array>

namespace catena::io::schema {

inline constexpr std::array joint_keys{
    // context, name, required, unit, default, bound, meaning
    ModelKey{"joints[]", "name", "no", "", "`joint_<index>`", "", "element name (sensors use it)"},
    ModelKey{"joints[]", "kind", "yes", "", "",
             "one of: clamp, spherical, revolute, prismatic, cylindrical, universal, planar, free",
             "the held and free components (table above)"},
    ModelKey{"joints[]", "nodes", "one of `nodes` and `node`", "", "", "two different nodes",
             "`[a, b]`: frame A on node a, frame B on node b"},
    ModelKey{"joints[]", "node", "one of `nodes` and `node`", "", "", "", "frame B's node; frame A is the ground"},
    ModelKey{"joints[]", "at", "no", "m", "node b's position", "", "the joint point at t = 0, global"},
    ModelKey{"joints[]", "axis", "no", "", "`[0, 0, 1]`", "nonzero",
             "the joint z axis at t = 0, global (hinge axis, slide direction)"},
    ModelKey{"joints[]", "x_axis", "no", "", "global x (y if the axis is along x)", "not along `axis`",
             "a vector giving the joint x axis, made normal to `axis`"},
    ModelKey{"joints[]", "laws", "no", "", "from `kind`", "",
             "per component (`x`, `y`, `z`, `rx`, `ry`, `rz`), a law below"},
    ModelKey{"joints[]", "active_from", "no", "s", "always", "",
             "outside [from, until) every component is free with zero force: the joint is released (Borri's "
             "unhooking); a spring stores no energy then. A step is on or off as its middle is"},
    ModelKey{"joints[]", "active_until", "no", "s", "always", ">= 0, after `active_from`",
             "the end of [from, until). The initial equilibrium (`analysis.initial_equilibrium`) counts as t = 0 "
             "and holds a joint with `active_until: 0`: a chain hangs from it, then falls. An interval that is "
             "empty or ends before t = 0, in which the joint would never act, is an error; one that starts after "
             "`t_end` is not (a restart may run further)"},

    ModelKey{"joints[].laws", "x", "no", "", "", "", "the law of ε_x, the displacement along the joint x axis"},
    ModelKey{"joints[].laws", "y", "no", "", "", "", "the law of ε_y, the displacement along the joint y axis"},
    ModelKey{"joints[].laws", "z", "no", "", "", "", "the law of ε_z, the displacement along the joint z axis"},
    ModelKey{"joints[].laws", "rx", "no", "", "", "", "the law of ρ_x, the rotation about the joint x axis"},
    ModelKey{"joints[].laws", "ry", "no", "", "", "", "the law of ρ_y, the rotation about the joint y axis"},
    ModelKey{"joints[].laws", "rz", "no", "", "", "", "the law of ρ_z, the rotation about the joint z axis"},

    ModelKey{"joints[].laws.*", "prescribed", "no", "m or rad", "", "0 at t = 0",
             "e_k = g(t), a function of `t`: a driven displacement or angle"},
    ModelKey{"joints[].laws.*", "rate", "no", "m/s or rad/s", "", "",
             "e_k advances by ∫ ė dt, ė a function of `t`: a driven velocity (`rate: omega`)"},
    ModelKey{"joints[].laws.*", "stiffness", "no", "N/m or N m/rad", "0", ">= 0",
             "free component only: k in λ_k = −k (e_k − rest) − c ė_k + F; a constant (a stiffness that varies "
             "with the motion is a law in `force`)"},
    ModelKey{"joints[].laws.*", "damping", "no", "N s/m or N m s/rad", "0", ">= 0",
             "free component only: c in λ_k = −k (e_k − rest) − c ė_k + F; a constant (a damping that varies "
             "with the motion is a law in `force`)"},
    ModelKey{"joints[].laws.*", "rest", "no", "m or rad", "0", "",
             "free component only: rest in λ_k = −k (e_k − rest) − c ė_k + F"},
    ModelKey{"joints[].laws.*", "force", "no", "N or N m", "0", "",
             "free component only: F in λ_k = −k (e_k − rest) − c ė_k + F: a function of `t`, or a law of the "
             "motion, an expression of the joint's coordinates and rates, the inputs and `t` "
             "([below](#laws-of-the-motion))"},

    ModelKey{"chains[]", "name", "yes", "", "", "", "names the generated nodes, bodies and joints"},
    ModelKey{"chains[]", "bodies", "with `from`; optional with `points`", "", "number of points − 1", ">= 1, integer",
             "n, the number of bodies"},
    ModelKey{"chains[]", "from", "one of `points` and `from`/`direction`/`length`", "m", "", "", "the first point"},
    ModelKey{"chains[]", "direction", "with `from`", "", "", "nonzero", "a vector along the chain"},
    ModelKey{"chains[]", "length", "with `from`", "m", "", "> 0", "length of each body"},
    ModelKey{"chains[]", "points", "one of `points` and `from`/`direction`/`length`", "m", "",
             "at least 2; consecutive ones distinct",
             "the n + 1 joint points, a list of `[x, y, z]` (it may hold `repeat` blocks)"},
    ModelKey{"chains[]", "mass", "yes", "kg", "", "> 0", "mass of each body"},
    ModelKey{"chains[]", "inertia", "yes", "kg m^2", "", "",
             "inertia of each body about its centre, in body axes (x along the body), in any form `rigid_bodies` "
             "accept"},
    ModelKey{"chains[]", "joint", "yes", "", "", "",
             "the joint between consecutive bodies: `{kind, axis, x_axis, laws}` as in `joints` (global axes at "
             "t = 0)"},
    ModelKey{"chains[]", "ground", "no", "", "none", "",
             "the joint between the ground and the first body at the first point, same keys as `joint`"},

    ModelKey{"chains[].joint", "kind", "yes", "", "", "one of the kinds of `joints`", "as in `joints`"},
    ModelKey{"chains[].joint", "axis", "no", "", "`[0, 0, 1]`", "nonzero", "as in `joints`"},
    ModelKey{"chains[].joint", "x_axis", "no", "", "global x (y if the axis is along x)", "not along `axis`",
             "as in `joints`"},
    ModelKey{"chains[].joint", "laws", "no", "", "from `kind`", "", "as in `joints`"},
};

}  // namespace catena::io::schema
