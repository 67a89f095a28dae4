#pragma once
/// The elements' histories (fem::Element::save_history) as a run's state: what a checkpoint
/// holds of them, and taking them back on a restart.
#include "assembly/tableau.hpp"
#include "fem/model.hpp"

#include <vector>

namespace catena::solvers {

/// Every element's history, one entry per model element; under MPI gathered on rank 0 from the
/// rank that evaluates each (collective; the other ranks' entries are empty).
[[nodiscard]] std::vector<std::vector<double>> save_element_histories(const fem::Model& model,
                                                                      const assembly::Tableau& tableau);
/// Gives every element its saved history (one entry per element, as saved). Throws
/// std::invalid_argument naming an element whose history has values it does not read.
void restore_element_histories(fem::Model& model, const std::vector<std::vector<double>>& histories);

}  // namespace catena::solvers
