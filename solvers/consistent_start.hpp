#pragma once
/// Consistent starts (seed 001's projection). Positions need none: a joint's two frames are both
/// placed at its one point and axis at t = 0 (docs/model-format.md, `joints`), so every joint is
/// assembled by construction (rounded coordinates change a link's length, never open a joint).
/// Velocities: the velocities closest to the given ones in the kinetic-energy metric that meet
/// every joint's velocity constraint and drive,
///
///   min ½ (v − v₀)ᵀ M (v − v₀)   subject to   G v = b,
///
/// i.e. [M Gᵀ; G 0] [v; μ] = [M v₀; b]: the change of momentum M (v − v₀) = −Gᵀ μ lies in the
/// range of the constraint forces (an impulse the joints could apply), and among such velocities
/// this one changes the kinetic energy least. M from the elements' inertia lumps
/// (fem::Element::inertia_lumps: rigid bodies with their offsets, point masses, beams), G and b
/// from fem::Element::velocity_constraints (a joint's held and driven components: b = 0 for ideal
/// constraints, the law's rate for drives); v = (velocity, angular velocity) of every node's free
/// components. Rows of M that have no inertia (a massless node, a body's spin about its axis when
/// its inertia there is zero) get 1e-12 of the largest diagonal of their kind, so that the
/// velocity they leave undetermined is the one closest to v₀. A driven crank in a closed loop
/// then starts at speed with only the crank's speed given. Contradictory drives, or drives on a
/// loop that cannot move, leave [M Gᵀ; G 0] singular: refused naming the constraints.
#include "assembly/tableau.hpp"
#include "solvers/committed_state.hpp"

#include <string>

namespace catena::solvers {

struct VelocityProjectionReport {
  int constraints = 0;           ///< velocity constraints (held and driven components)
  double largest_change = 0.0;   ///< max over nodes of |Δv| and |Δω| L [m/s]
  std::string where;             ///< "node 'crank' velocity" where it is largest
  double largest_violation = 0.0;  ///< max |G v − b| after (m/s or rad/s)
};

/// Projects the velocities of `state` at time t. Throws InconsistentJoints
/// (solvers/solver_failure.hpp) when the constraints and drives contradict each other.
VelocityProjectionReport project_velocities(const fem::Model& model, assembly::Tableau& tableau,
                                            CommittedState& state, double t);

}  // namespace catena::solvers
