#pragma once
/// Energy and momentum bookkeeping written to energy.csv. State functions (kinetic, strain,
/// potential, momenta) are evaluated at a committed state; path quantities (work of external
/// loads and drives, dissipation) are accumulated step by step. For every model
///     balance = kinetic + strain + potential + dissipated − external_work
/// must stay constant (docs/formulation.md §3).
#include "fem/types.hpp"

#include <array>
#include <string_view>

namespace catena::fem {

/// The columns of energy.csv after t (solvers::energy_columns gives their values); with
/// `--sensitivity` they head sensitivities.csv's columns too, so a sensor may not take these names.
inline constexpr std::array<std::string_view, 12> energy_column_names{
    "kinetic", "strain", "potential", "external_work", "dissipated", "balance", "px", "py", "pz", "Lx", "Ly", "Lz"};

struct StateEnergy {
  double kinetic = 0.0;
  double strain = 0.0;
  double potential = 0.0;
  Vec3 momentum = Vec3::Zero();
  Vec3 angular_momentum = Vec3::Zero();  ///< about the global origin
  StateEnergy& operator+=(const StateEnergy& o);
};

struct StepWork {
  double external_work = 0.0;
  double dissipated = 0.0;
  StepWork& operator+=(const StepWork& o) {
    external_work += o.external_work;
    dissipated += o.dissipated;
    return *this;
  }
};

inline StateEnergy& StateEnergy::operator+=(const StateEnergy& o) {
  kinetic += o.kinetic;
  strain += o.strain;
  potential += o.potential;
  momentum += o.momentum;
  angular_momentum += o.angular_momentum;
  return *this;
}

}  // namespace catena::fem
