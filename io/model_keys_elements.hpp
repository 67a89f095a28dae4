#pragma once
/// The keys of nodes, supports, masses, trusses, rigid bodies and loads (rows of io/model_keys.hpp).
#include "io/model_keys_row.hpp"

#include <array>

namespace catena::io::schema {

inline constexpr std::array element_keys{
    // context, name, required, unit, default, bound, meaning
    ModelKey{"nodes[]", "name", "yes", "", "", "", "unique node name"},
    ModelKey{"nodes[]", "position", "yes", "m", "", "", "`[x, y, z]` at t = 0 (the reference position)"},
    ModelKey{"nodes[]", "velocity", "no", "m/s", "from `initial_velocity`, else `[0, 0, 0]`", "",
             "`[vx, vy, vz]` at t = 0"},
    ModelKey{"nodes[]", "orientation", "no", "rad", "`[0, 0, 0]`", "",
             "rotation vector φ of the node's triad at t = 0: R0 = exp(φ), a rotation by |φ| about φ; makes the node "
             "a frame node"},
    ModelKey{"nodes[]", "angular_velocity", "no", "rad/s", "`omega` of `initial_velocity`, else `[0, 0, 0]`", "",
             "`[ωx, ωy, ωz]` at t = 0, global axes; makes the node a frame node"},

    ModelKey{"initial_velocity", "omega", "no", "rad/s", "`[0, 0, 0]`", "", "angular velocity"},
    ModelKey{"initial_velocity", "about", "no", "m", "`[0, 0, 0]`", "", "a point of the rotation axis"},
    ModelKey{"initial_velocity", "velocity", "no", "m/s", "`[0, 0, 0]`", "", "velocity of the point `about`"},

    ModelKey{"supports[]", "node", "one of `node` and `set`", "", "", "", "the node"},
    ModelKey{"supports[]", "set", "one of `node` and `set`", "", "", "",
             "a set of nodes: the same support on each (see `sets`)"},
    ModelKey{"supports[]", "dofs", "no", "", "`[x, y, z]`", "x, y, z, rx, ry, rz (one or a list), or all",
             "the fixed components: translations `x`, `y`, `z` and rotations about the global axes `rx`, `ry`, `rz`; "
             "`all` for all six (a clamp)"},

    ModelKey{"masses[]", "name", "no", "", "`mass_<index>`", "", "element name (index in this list, from 0)"},
    ModelKey{"masses[]", "node", "one of `node` and `set`", "", "", "", "the node carrying the mass"},
    ModelKey{"masses[]", "set", "one of `node` and `set`", "", "", "",
             "a set of nodes: one mass on each, named `<name>_<node>`"},
    ModelKey{"masses[]", "mass", "yes", "kg", "", "> 0", "the mass"},

    ModelKey{"trusses[]", "name", "no", "", "`truss_<index>`", "", "element name"},
    ModelKey{"trusses[]", "nodes", "yes", "", "", "", "`[a, b]`, two different nodes at distinct positions"},
    ModelKey{"trusses[]", "EA", "yes", "N", "", "> 0", "axial stiffness"},
    ModelKey{"trusses[]", "rest_length", "no", "m", "initial distance between `a` and `b`", "> 0",
             "l0 (a prestressed bar when different)"},

    ModelKey{"rigid_bodies[]", "name", "no", "", "`body_<index>`", "", "element name"},
    ModelKey{"rigid_bodies[]", "node", "yes", "", "", "", "the node carrying the body"},
    ModelKey{"rigid_bodies[]", "mass", "yes", "kg", "", ">= 0", "the mass (0: a pure rotary inertia)"},
    ModelKey{"rigid_bodies[]", "inertia", "yes", "kg m^2", "", "positive definite, triangle inequality",
             "inertia tensor about the centre of mass, in node axes (below)"},
    ModelKey{"rigid_bodies[]", "offset", "no", "m", "`[0, 0, 0]`", "",
             "position of the centre of mass from the node, in node axes"},
    ModelKey{"rigid_bodies[]", "shape", "no", "", "the box of the body's inertia", "",
             "what the scene (`scene_NNNNN.vtu`) draws, centred on the centre of mass, in node axes: one of `box`, "
             "`cylinder`, `sphere`, or `none` (below)"},
    ModelKey{"rigid_bodies[].shape", "box", "one shape", "", "", "", "`{sides: [a, b, c]}`"},
    ModelKey{"rigid_bodies[].shape", "cylinder", "one shape", "", "", "", "`{radius, length, axis}`"},
    ModelKey{"rigid_bodies[].shape", "sphere", "one shape", "", "", "", "`{radius}`"},
    ModelKey{"rigid_bodies[].shape.box", "sides", "yes", "m", "", "> 0",
             "`[a, b, c]`: side lengths along the node's x, y, z"},
    ModelKey{"rigid_bodies[].shape.cylinder", "radius", "yes", "m", "", "> 0", "radius"},
    ModelKey{"rigid_bodies[].shape.cylinder", "length", "yes", "m", "", "> 0", "length along its axis"},
    ModelKey{"rigid_bodies[].shape.cylinder", "axis", "no", "", "`z`", "x, y or z", "the node axis it lies along"},
    ModelKey{"rigid_bodies[].shape.sphere", "radius", "yes", "m", "", "> 0", "radius"},

    ModelKey{"loads[]", "name", "no", "", "`load_<index>`", "", "element name"},
    ModelKey{"loads[]", "node", "one of `node` and `set`", "", "", "", "the loaded node"},
    ModelKey{"loads[]", "set", "one of `node` and `set`", "", "", "",
             "a set of nodes: the same load on each, named `<name>_<node>`"},
    ModelKey{"loads[]", "force", "one of `force` and `moment`", "N", "", "",
             "`[fx, fy, fz]`, each a function of `t`, or of the node's motion (`x`, `vx`, `speed`, ...: "
             "[Laws of the motion of a load](#laws-of-the-motion-of-a-load))"},
    ModelKey{"loads[]", "moment", "one of `force` and `moment`", "N m", "", "",
             "`[mx, my, mz]`, each a function of `t`, or of the node's motion (`wx`, ...)"},
    ModelKey{"loads[]", "follower", "no", "", "`false`", "true or false",
             "`true`: components in the node's axes (turning with it); functions of `t` only"},
    ModelKey{"loads[]", "semitangential", "no", "", "`false`", "true or false",
             "on a moment that is not a follower only: `true` makes the moment *semitangential*, the conservative "
             "moment with potential −m · ψ (m global, ψ the node's rotation vector from its orientation at t = 0): "
             "to first order its vector turns by half the node's rotation (a follower moment turns by all of it, a "
             "dead one not at all). Defined while that rotation stays below 3 rad (beyond, the step is cut or the "
             "analysis stops). This is the torque of Greenhill's problem, M_cr = π EI/l for a cantilever "
             "(cases/buckling-torsion)"},

    ModelKey{"beam_loads[]", "name", "no", "", "`beam_load_<index>`", "", "prefix of the nodal loads' names"},
    ModelKey{"beam_loads[]", "beam", "yes", "", "", "",
             "the `name` of a beam definition (all its elements are loaded)"},
    ModelKey{"beam_loads[]", "force", "yes", "N/m", "", "",
             "`[qx, qy, qz]` per unit length, global axes, each a function of `t`"},
};

}  // namespace catena::io::schema
