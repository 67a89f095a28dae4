#pragma once
/// The top-level keys, `repeat` blocks and `sets` (rows of io/model_keys.hpp).
#include "io/model_keys_row.hpp"

#include <array>

namespace catena::io::schema {

inline constexpr std::array model_keys{
    // context, name, required, unit, default, bound, meaning
    ModelKey{"", "name", "yes", "", "", "",
             "model name; results go to `out/<name>/` by default. Must be usable as a folder name (no `/` or `\\`)."},
    ModelKey{"", "parameters", "no", "", "", "", "named constants, in order"},
    ModelKey{"", "nodes", "yes, unless `chains` give the nodes", "", "", "",
             "the points of the model, at least one"},
    ModelKey{"", "initial_velocity", "no", "", "", "",
             "a rigid velocity field for nodes without their own `velocity`"},
    ModelKey{"", "supports", "no", "", "", "", "fixed displacement and rotation components"},
    ModelKey{"", "masses", "no", "", "", "", "lumped point masses"},
    ModelKey{"", "trusses", "no", "", "", "", "co-rotational bars"},
    ModelKey{"", "beams", "no", "", "", "",
             "co-rotational 3D beams, given element by element or generated with n elements"},
    ModelKey{"", "rigid_bodies", "no", "", "", "",
             "rigid bodies (mass, inertia tensor, centre-of-mass offset) on frame nodes"},
    ModelKey{"", "gravity", "no", "m/s^2", "`[0, 0, 0]`", "", "gravity acceleration `[gx, gy, gz]`"},
    ModelKey{"", "loads", "no", "", "", "", "nodal forces and moments, dead or follower, functions of time"},
    ModelKey{"", "beam_loads", "no", "", "", "", "distributed forces per unit length along beams, functions of time"},
    ModelKey{"", "analysis", "yes", "", "", "",
             "what to compute and how: `dynamic`, `static`, `eigen` or `buckling`"},
    ModelKey{"", "sensors", "no", "", "", "", "named scalar histories written to `sensors.csv`"},
    ModelKey{"", "planar", "no", "", "", "one of: xy, yz, zx", "keep every node in its plane parallel to this one"},
    ModelKey{"", "joints", "no", "", "", "",
             "joints between frame nodes, or a frame node and the ground, as relative coordinates with multipliers"},
    ModelKey{"", "chains", "no", "", "", "", "generated chains of n rigid bodies joined by a joint kind"},
    ModelKey{"", "sets", "no", "", "", "",
             "named sets of nodes or of elements, for supports, masses, loads and sensors"},
    ModelKey{"", "inputs", "no", "", "", "",
             "named inputs that laws of the motion read, held over each step (zero-order hold): set by a program "
             "between steps, or following a table ([below](#inputs))"},
    ModelKey{"", "output", "no", "", "", "",
             "how often VTK frames are written (`vtk_every`, `dt`), checkpoints of long runs (`checkpoint_every`) "
             "([below](#output))"},

    // An item of any list that is a `repeat` block.
    ModelKey{"*[]", "repeat", "yes", "", "", "", "the index range `{index, from, to, step}` (below)"},
    ModelKey{"*[]", "items", "yes", "", "", "",
             "the list of items read once for each value of the index (it may hold further `repeat` blocks)"},
    ModelKey{"*[].repeat", "index", "yes", "", "", "a new name",
             "the index name: a parameter name (letters, digits, `_`) that is not yet a parameter or an enclosing "
             "index"},
    ModelKey{"*[].repeat", "from", "yes", "", "", "integer",
             "first value: a whole number (a number or an expression of parameters and enclosing indices)"},
    ModelKey{"*[].repeat", "to", "yes", "", "", "integer",
             "last value: a whole number (a number or an expression of parameters and enclosing indices)"},
    ModelKey{"*[].repeat", "step", "no", "", "1", "integer, != 0",
             "with `step: -1` the index counts down. No value is read when `to` is before `from`. At most 100000 "
             "repetitions"},

    ModelKey{"inputs[]", "name", "yes", "", "", "a new name",
             "the name laws use (letters, digits, `_`): not a parameter, `t`, a predefined name or a variable of "
             "the laws of the motion (`e`, `x`, `x_rate`, `vx`, `speed`, `wx`, ...)"},
    ModelKey{"inputs[]", "value", "one of `value` and `table`", "", "", "",
             "its value until a program sets another (between steps; a number or an expression of parameters)"},
    ModelKey{"inputs[]", "table", "one of `value` and `table`", "", "", "times increasing",
             "rows `[t, value]`: over a step from t_n it holds the value of the last row with t ≤ t_n (the first "
             "row's before it); a program cannot set it"},

    ModelKey{"sets[]", "name", "yes", "", "", "", "unique set name"},
    ModelKey{"sets[]", "nodes", "one of `nodes` and `elements`", "", "", "",
             "node names (they may hold `repeat` blocks)"},
    ModelKey{"sets[]", "elements", "one of `nodes` and `elements`", "", "", "",
             "element names (they may hold `repeat` blocks)"},
};

}  // namespace catena::io::schema
