#pragma once
// Runs a benchmark case (cases/<name>/model.yaml with --set overrides) in-process and keeps every
// frame, for the case regression tests in tests/cases/.
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace catena::testing {

struct CaseRun {
  fem::Model model;
  RecordingObserver rec;
  solvers::RunStatistics stats;
};

inline CaseRun run_case(const std::string& name, std::vector<std::string> overrides = {}) {
  CaseRun c{io::read_model(std::string(CATENA_SOURCE_DIR) + "/cases/" + name + "/model.yaml", overrides), {}, {}};
  assembly::Tableau tableau(c.model, PETSC_COMM_WORLD);
  solvers::TimeIntegrator integrator(c.model, tableau);
  c.stats = integrator.run(c.rec);
  return c;
}

/// The column of a sensor in RecordingObserver rows.
inline std::size_t sensor_index(const fem::Model& m, const std::string& name) {
  for (std::size_t i = 0; i < m.sensors.size(); ++i)
    if (m.sensors[i].name == name) return i;
  throw std::runtime_error("no sensor " + name);
}

}  // namespace catena::testing
