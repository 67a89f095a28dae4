#pragma once
// The test four-bar shared by the redundancy, consistent-start and command-line tests: rigid links
// on A (0, 0), B (0, 1), C (2, 1), D (2, 0), a parallelogram in the x-y plane, revolute joints
// about z. In 3D it is over-constrained three times; with `planar: xy` it is a mechanism of one
// degree of freedom.
#include <string>

namespace catena::testing {

/// The model file's text: `crank_law` and `rocker_law` go inside joints A's and D's mappings
/// (", laws: {...}"), `extra` after the analysis (e.g. "planar: xy\n").
inline std::string four_bar_model(const std::string& crank_law = "", const std::string& rocker_law = "",
                                  const std::string& extra = "", const std::string& gravity = "") {
  return "name: four-bar\n" + gravity + R"yaml(nodes:
  - {name: crank, position: [0, 0.5, 0]}
  - {name: coupler, position: [1, 1, 0]}
  - {name: rocker, position: [2, 0.5, 0]}
rigid_bodies:
  - {name: b1, node: crank, mass: 1, inertia: [0.08, 0.001, 0.08]}
  - {name: b2, node: coupler, mass: 2, inertia: [0.001, 0.6, 0.6]}
  - {name: b3, node: rocker, mass: 1, inertia: [0.08, 0.001, 0.08]}
joints:
  - {name: A, kind: revolute, node: crank, at: [0, 0, 0])yaml" +
         crank_law + R"yaml(}
  - {name: B, kind: revolute, nodes: [crank, coupler], at: [0, 1, 0]}
  - {name: C, kind: revolute, nodes: [coupler, rocker], at: [2, 1, 0]}
  - {name: D, kind: revolute, node: rocker, at: [2, 0, 0])yaml" +
         rocker_law + "}\nanalysis: {dt: 0.01, t_end: 1}\n" + extra;
}

}  // namespace catena::testing
