#pragma once
/// Keeps the rows of energy.csv and sensors.csv in memory (app::History), the numbers the files
/// get: what a program reads of a run while it runs, with or without files.
#include "app/simulation.hpp"
#include "solvers/observer.hpp"

namespace catena::app {

/// Every rank records every row: rank 0 evaluates the sensors (element sensors read histories that
/// rank 0 keeps for certain) and hands them to the others, so `on_frame` is collective, as every
/// rank gets each frame.
class HistoryRecorder final : public solvers::Observer {
 public:
  HistoryRecorder(const fem::Model& model, History& history) : model_(model), history_(history) {}
  void on_frame(const solvers::Frame& frame) override;

 private:
  const fem::Model& model_;
  History& history_;
};

/// Each sensor of `model` at the node states `states`: rank 0's values on every rank (collective).
[[nodiscard]] std::vector<double> sensor_values(const fem::Model& model, std::span<const fem::NodeState> states);

}  // namespace catena::app
