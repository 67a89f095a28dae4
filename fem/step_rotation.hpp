#pragma once
/// The rotation of a frame node over one time element and the commit rule of node states.
///
/// The rotation unknown of a step is the spatial Cayley vector b = 2 tan(θ/2) n of the increment,
/// R_{n+1} = cay(b) R_n. Cayley rather than exp because of the chord identity
///     (cay(b) − I) a = b × ½(a + cay(b) a)     for every vector a,
/// i.e. under a finite rigid rotation every material point moves along the chord that the
/// midpoint rule gives it with the midpoint angular velocity b/h. A finite rigid step of a whole
/// element, (Δx_k = t + b × x_{m,k}, b_k = b), is therefore an exact infinitesimal rigid mode of
/// the midpoint configuration, which is what lets the beam's discrete gradient conserve energy
/// and both momenta exactly (elements/beam.hpp) and rigid bodies with offset centres need no
/// correction factor (elements/rigid_inertia.hpp). A step cannot turn a node by a half turn
/// (|b| → ∞); steps are far smaller.
#include "fem/node.hpp"
#include "fem/rotation.hpp"

namespace catena::fem {

/// cay(b): the rotation of the step (any scalar type, for automatic differentiation).
template <class T>
[[nodiscard]] Mat3T<T> step_rotation(const Vec3T<T>& b) {
  return cayley(b);
}

/// The rotation by half the step's angle, cay(b/(1 + √(1 + |b|²/4))) (tan(θ/4) from tan(θ/2)):
/// the axes in the middle of the step, where follower loads act and beams take their gradient.
template <class T>
[[nodiscard]] Mat3T<T> half_step_rotation(const Vec3T<T>& b) {
  using std::sqrt;
  return cayley(Vec3T<T>(b / (T(1) + sqrt(T(1) + T(0.25) * b.squaredNorm()))));
}

/// The node state at the end of a converged step, from the committed state at its start, the
/// position increment Δx and (frame nodes) the rotation unknown b:
///   x += Δx,  v = 2Δx/h − v,  R = cay(b) R,  ω = 2b/h − cay(b) ω.
/// The velocity rules are the midpoint rule's (v_m = Δx/h, ω_m = b/h); the energy–momentum
/// inertia of elements/rigid_inertia.hpp is exact for them. Statics keep the velocities.
inline void advance(NodeState& state, const Vec3& dx, const Vec3* b, double h, bool dynamic) {
  state.position += dx;
  if (dynamic) state.velocity = 2.0 * dx / h - state.velocity;
  if (b == nullptr) return;
  const Quaternion q = quaternion_from_cayley(*b);
  if (dynamic) state.angular_velocity = 2.0 * *b / h - q * state.angular_velocity;
  state.orientation = (q * state.orientation).normalized();
}

}  // namespace catena::fem
