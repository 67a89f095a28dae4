#pragma once
/// The keys of `beams`: the definition, its direct section, material and shapes (rows of
/// io/model_keys.hpp).
#include "io/model_keys_row.hpp"

#include <array>

namespace catena::io::schema {

inline constexpr std::array beam_keys{
    // context, name, required, unit, default, bound, meaning
    ModelKey{"beams[]", "name", "yes", "", "", "",
             "name of the definition; its elements and generated nodes are named after it"},
    ModelKey{"beams[]", "nodes", "one of `nodes` and `from`/`to`", "", "", "", "`[a, b]`: one element from `a` to `b`"},
    ModelKey{"beams[]", "from", "one of `nodes` and `from`/`to`", "", "", "",
             "start node of a generated line of elements"},
    ModelKey{"beams[]", "to", "with `from` (optional with `arc`)", "", "", "",
             "end node of a generated line of elements; with `arc`, it must lie at the arc's end (default: a "
             "generated node `<name>_end`)"},
    ModelKey{"beams[]", "elements", "no (with `from`/`to`); yes with `arc`", "", "1", ">= 1, integer",
             "number of elements n"},
    ModelKey{"beams[]", "arc", "no (with `from`)", "", "straight", "",
             "`{centre, angle, axis}`: the elements follow a circular arc from `from` (below); `to` is then optional"},
    ModelKey{"beams[]", "orientation", "no", "", "see below", "not along the beam",
             "a vector (global axes) in the plane of the local x and y axes"},
    ModelKey{"beams[]", "section", "one of `section` and `material` + `shape`", "", "", "",
             "stiffness and inertia per length, given directly (below)"},
    ModelKey{"beams[]", "material", "one of `section` and `material` + `shape`", "", "", "",
             "a material, with a cross-section `shape` (below)"},
    ModelKey{"beams[]", "shape", "one of `section` and `material` + `shape`", "", "", "",
             "a cross-section shape, with a `material` (below)"},
    ModelKey{"beams[]", "damping_time", "no", "s", "0", ">= 0",
             "Kelvin–Voigt material damping: stresses K (ε + η ε̇), η = `damping_time` (time integration only: not "
             "in the damping matrix of an eigen-analysis)"},
    ModelKey{"beams[]", "offsets", "no", "m", "none", "",
             "`[[x, y, z], [x, y, z]]`: rigid eccentric connections, the beam's first and last end points from its "
             "end nodes (global axes, at t = 0); they turn with the nodes. With `from`/`to`, the generated nodes lie "
             "on the line between the end points. The lumped masses stay at the nodes."},
    ModelKey{"beams[]", "mass", "no", "", "`lumped`", "one of: lumped, mixed, consistent",
             "translational mass of each element: `lumped` (ρA L/2 at each node), `consistent` (ρA L/6 [2 1; 1 2]) "
             "or `mixed` (their average: the most accurate frequencies, about a fifth of the lumped error for a "
             "cantilever's third mode). The coupling part keeps weight, momentum and the midpoint scheme's exact "
             "energy and momentum balance; rotary inertia stays lumped"},

    ModelKey{"beams[].arc", "centre", "yes", "m", "", "not `from`", "`[x, y, z]`: the centre of the circle"},
    ModelKey{"beams[].arc", "angle", "yes", "rad", "", "nonzero, |angle| < 360 deg",
             "the angle the arc turns from `from` about `axis` (right-hand rule; negative turns the other way)"},
    ModelKey{"beams[].arc", "axis", "no", "", "`[0, 0, 1]`", "normal to the radius",
             "`[x, y, z]`: the axis through the centre the arc turns about (any length)"},

    ModelKey{"beams[].section", "EA", "yes", "N", "", "> 0", "axial stiffness"},
    ModelKey{"beams[].section", "GAy", "no", "N", "rigid in shear", "> 0",
             "shear stiffness along local y (absent: no shear flexibility, Euler–Bernoulli)"},
    ModelKey{"beams[].section", "GAz", "no", "N", "rigid in shear", "> 0",
             "shear stiffness along local z (absent: no shear flexibility, Euler–Bernoulli)"},
    ModelKey{"beams[].section", "GJ", "yes", "N m^2", "", "> 0", "torsional stiffness"},
    ModelKey{"beams[].section", "EIy", "yes", "N m^2", "", "> 0", "bending stiffness about local y"},
    ModelKey{"beams[].section", "EIz", "yes", "N m^2", "", "> 0", "bending stiffness about local z"},
    ModelKey{"beams[].section", "rhoA", "no", "kg/m", "0", ">= 0", "mass per length"},
    ModelKey{"beams[].section", "rhoJ", "no", "kg m", "0", ">= 0",
             "polar mass moment of inertia per length (about local x)"},
    ModelKey{"beams[].section", "rhoIy", "no", "kg m", "0", ">= 0", "mass moment of inertia per length about local y"},
    ModelKey{"beams[].section", "rhoIz", "no", "kg m", "0", ">= 0", "mass moment of inertia per length about local z"},
    ModelKey{"beams[].section", "radius", "no", "m", "2 √(√(EIy EIz)/EA)", ">= 0",
             "for output only: the `radius` cell array, for ParaView's Tube filter; by default the radius of the "
             "solid circle with the section's radius of gyration"},

    ModelKey{"beams[].material", "E", "yes", "Pa", "", "> 0", "Young's modulus"},
    ModelKey{"beams[].material", "G", "one of `G` and `nu`", "Pa", "", "> 0", "shear modulus"},
    ModelKey{"beams[].material", "nu", "one of `G` and `nu`", "", "", "> -1, <= 0.5",
             "Poisson's ratio ν; then G = E / (2 (1 + ν))"},
    ModelKey{"beams[].material", "rho", "no", "kg/m^3", "0", ">= 0", "density"},

    ModelKey{"beams[].shape", "rectangle", "one shape", "", "", "", "`{width, height}` (below)"},
    ModelKey{"beams[].shape", "circle", "one shape", "", "", "", "`{radius}` (below)"},
    ModelKey{"beams[].shape", "tube", "one shape", "", "", "", "`{outer_radius, inner_radius}` (below)"},
    ModelKey{"beams[].shape.rectangle", "width", "yes", "m", "", "> 0", "width b along local y"},
    ModelKey{"beams[].shape.rectangle", "height", "yes", "m", "", "> 0", "height h along local z"},
    ModelKey{"beams[].shape.circle", "radius", "yes", "m", "", "> 0", "radius r of a solid circle"},
    ModelKey{"beams[].shape.tube", "outer_radius", "yes", "m", "", "> 0", "outer radius R"},
    ModelKey{"beams[].shape.tube", "inner_radius", "yes", "m", "", ">= 0, < outer_radius", "inner radius r"},
};

}  // namespace catena::io::schema
