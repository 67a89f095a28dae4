#pragma once
/// Section forces and moments at the two ends of a beam or truss element, from the element's own
/// internal force vector (Element::end_values writes them as `section_force`, `section_moment`).
///
/// The section at end k is the element's cross-section at its end point p_k (the node's position,
/// or for a beam with an eccentric end the point rigidly offset from it, x_k + R_k o_k).
///
/// Axes. A beam's values are in the section axes S_k = R_k C_k that node k carries
/// (elements/beam.hpp: the node's triad R_k times the constant offset C_k = R_k0ᵀ E0): axis 1 is the
/// section's normal (along the element in the reference configuration), axes 2 and 3 its principal
/// axes, local y and z of the beam's orientation vector. The elements of a straight beam of `beams`
/// have the same C (one E0, nodes with one initial triad), so the two that share a node have the
/// same S there; where the reference geometry kinks (a corner, an arc's chords) their axes differ
/// by the kink, and so do the components of the same force. They are not the element frame E of
/// `cell_values` (axis 1 on the chord, at the element's middle): S_k is E turned by the end's
/// rotation relative to the chord, θ_k (beam.hpp), small in a refined mesh (about the curvature
/// times L/2) and zero where the element is not bent. A truss has no section: axis 1 is its
/// current chord a→b, axes 2 and 3 complete it (its shear and moments are zero in any axes).
///
/// Sign. The stress resultant of the section, with the element's direction from its first
/// cell node a to its second b: the force (N, Q2, Q3) and the moment (T, M2, M3), about the end
/// point, that the part beyond the section (towards b) exerts on the part before it. N > 0 is
/// tension and T > 0 a torque turning positively about axis 1, the signs of `cell_values`
/// (axial_force, shear_force_y/z, torque, bending_moment_y/z), so the two agree where a quantity is
/// constant along the element. Along a beam without loads between its ends the moment changes as
/// dM/ds = −e1 × F: M2' = Q3 and M3' = −Q2.
///
/// Where they come from. The element's internal force at the state, f = Bᵀ K ε (the elastic
/// generalized forces σ = K ε, beam.hpp, pulled back by the spatial gradient B of the deformations:
/// the force the static analysis stamps; Kelvin–Voigt damping stresses are left out, as in
/// `cell_values`). Its part f_k at node k is the force and the moment about the node that the
/// element receives through that node, so the section resultant is −f_k at end a (the element
/// pushes on what lies before it) and +f_k at end b; the moment about the end point is the node's
/// moment less (R_k o_k) × f_k. The beam has no quadrature points: its strain energy is written on
/// six deformations in closed form, which hold axial force and torque constant, the bending
/// moments linear between the end moments and the shear constant (the exact Timoshenko solution
/// for loads at the ends). Since ε is unchanged by rigid motions, f has no resultant and no moment:
/// in global components the two ends carry the same force, and their moments differ by
/// −(p_b − p_a) × F, exactly, in any large displacement. Masses, weights and beam loads act at
/// the nodes, not inside the element: the ends of two elements meeting at a node agree when no
/// load (or inertia force) acts there, and otherwise differ by it.
#include "fem/element.hpp"

#include <array>

namespace catena::elements {

/// The section force and moment at one end of an element (the header says how they are meant).
struct EndSection {
  fem::Vec3 force = fem::Vec3::Zero();   ///< (N, Q2, Q3) in the section axes [N]
  fem::Vec3 moment = fem::Vec3::Zero();  ///< (T, M2, M3) in the section axes, about `point` [N m]
  fem::Mat3 axes = fem::Mat3::Identity();  ///< the section axes 1, 2, 3 as columns, global components
  fem::Vec3 point = fem::Vec3::Zero();   ///< the end point p_k [m]
};

/// The section values of end k (0: a, 1: b) from the element's internal force at node k: `force`
/// and `moment` about the node's position `node` (global components), the end point `point` and the
/// section axes `axes` there.
inline EndSection end_section(std::size_t k, const fem::Vec3& force, const fem::Vec3& moment, const fem::Vec3& node,
                              const fem::Vec3& point, const fem::Mat3& axes) {
  const double sign = k == 0 ? -1.0 : 1.0;
  const fem::Vec3 couple = moment - (point - node).cross(force);  // about the end point
  return {sign * (axes.transpose() * force), sign * (axes.transpose() * couple), axes, point};
}

/// Writes both ends as `section_force` and `section_moment` (Element::end_values).
inline void write_end_sections(const std::array<EndSection, 2>& ends, fem::EndValueSink& out) {
  for (std::size_t k = 0; k < 2; ++k) {
    out.set(k, "section_force", ends[k].force);
    out.set(k, "section_moment", ends[k].moment);
  }
}

}  // namespace catena::elements
