#pragma once
/// Quadrature along a time element, s ∈ [0, 1]: the rule laws of the motion are averaged with
/// over a step (elements/joint.hpp, elements/nodal_load.hpp), 4-point Gauss–Legendre, exact for polynomials of degree
/// 7 in s, so that a conservative law's work along the straight path of the step is exact for a
/// potential up to degree 8.
#include <array>

namespace catena::elements::step_quadrature {

inline constexpr std::array<double, 4> points{0.5 - 0.5 * 0.8611363115940526, 0.5 - 0.5 * 0.3399810435848563,
                                              0.5 + 0.5 * 0.3399810435848563, 0.5 + 0.5 * 0.8611363115940526};
inline constexpr std::array<double, 4> weights{0.5 * 0.3478548451374538, 0.5 * 0.6521451548625461,
                                               0.5 * 0.6521451548625461, 0.5 * 0.3478548451374538};

}  // namespace catena::elements::step_quadrature
