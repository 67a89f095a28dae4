#pragma once
/// The two time-element schemes (docs/formulation.md §2, §3). Both share the kinematics of the time
/// element,
///     x_{n+1} = x_n + Δx,   v_m = Δx / h,   v_{n+1} = 2 Δx / h − v_n,
/// and the momentum balance  m (v_{n+1} − v_n) / h + f_int − f_ext = 0. They differ only in the
/// internal force of that balance:
///   - `Midpoint`: the energy-conserving midpoint force of Crisfield & Shi, a discrete gradient
///     with  f_int · Δx = W(x_{n+1}) − W(x_n)  exactly;
///   - `Trapezoidal`: the average of the end-point forces, ½ (f_int(x_n) + f_int(x_{n+1})). With
///     equilibrium enforced at every end point this is Newmark's average-acceleration rule
///     (β = ¼, γ = ½) written without stored accelerations. It exists to show the locking that the
///     midpoint force removes (Crisfield & Shi, Bathe's pendulum).
/// External loads enter as the trapezoidal average ½ (f(t_n) + f(t_{n+1})) in both schemes.
/// A third value, `Static`, is not a time scheme but the same stamping for static analysis:
/// no inertia, internal forces and loads at the end of the increment, t being the load
/// parameter (equilibrium  f_int(x_{n+1}) = f_ext(t_{n+1})). Which of the static phases a solve
/// is in (a load increment, an equilibrium at fixed time) is the time element's
/// (fem/time_element.hpp); elements ask it `is_static()` rather than compare schemes.
#include <cstdint>
#include <string_view>

namespace catena::fem {

enum class TimeScheme : std::uint8_t { Midpoint, Trapezoidal, Static };

/// Coefficient of Δx in the inertia term m (v_{n+1} − v_n) / h = (2 m / h²)(Δx − h v_n).
inline double inertia_coefficient(double h) { return 2.0 / (h * h); }

}  // namespace catena::fem
