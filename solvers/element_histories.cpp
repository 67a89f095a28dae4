#include "solvers/element_histories.hpp"

#include <numeric>
#include <span>
#include <stdexcept>
#include <string>

namespace catena::solvers {

namespace {

/// MPI: every element's history on rank 0, from the rank that evaluates it (collective; the other
/// ranks' `out` is left as it is).
void gather_histories(const fem::Model& model, const assembly::Tableau& tableau, int rank, int ranks,
                      std::vector<std::vector<double>>& out) {
  // Packed as (element, count, values...) per element this rank evaluates.
  std::vector<double> mine, history;
  for (const std::size_t e : tableau.local_elements()) {
    history.clear();
    model.elements[e]->save_history(history);
    mine.push_back(static_cast<double>(e));
    mine.push_back(static_cast<double>(history.size()));
    mine.insert(mine.end(), history.begin(), history.end());
  }
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(ranks), 0), displacements(static_cast<std::size_t>(ranks), 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, tableau.comm());
  std::vector<double> all;
  if (rank == 0) {
    std::partial_sum(counts.begin(), counts.end() - 1, displacements.begin() + 1);
    all.resize(static_cast<std::size_t>(displacements.back() + counts.back()));
  }
  MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), displacements.data(), MPI_DOUBLE, 0,
              tableau.comm());
  for (std::size_t k = 0; k + 1 < all.size();) {
    const auto e = static_cast<std::size_t>(all[k]);
    const auto n = static_cast<std::size_t>(all[k + 1]);
    const auto values = all.begin() + static_cast<std::ptrdiff_t>(k + 2);
    out[e].assign(values, values + static_cast<std::ptrdiff_t>(n));
    k += 2 + n;
  }
}

}  // namespace

std::vector<std::vector<double>> save_element_histories(const fem::Model& model, const assembly::Tableau& tableau) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(tableau.comm(), &rank);
  MPI_Comm_size(tableau.comm(), &ranks);
  std::vector<std::vector<double>> histories(model.elements.size());
  if (ranks == 1) {
    for (std::size_t e = 0; e < model.elements.size(); ++e) model.elements[e]->save_history(histories[e]);
  } else {
    gather_histories(model, tableau, rank, ranks, histories);
  }
  return histories;
}

void restore_element_histories(fem::Model& model, const std::vector<std::vector<double>>& histories) {
  for (std::size_t e = 0; e < model.elements.size(); ++e) {
    std::span<const double> history = histories[e];
    model.elements[e]->restore_history(history);
    if (!history.empty())
      throw std::invalid_argument("element '" + model.elements[e]->name() + "': the saved history has " +
                                  std::to_string(histories[e].size()) + " values, " +
                                  std::to_string(history.size()) + " more than the element reads");
  }
}

}  // namespace catena::solvers
