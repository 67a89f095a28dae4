#pragma once
// Runs a benchmark case (cases/<name>/model.yaml with --set overrides) in-process and keeps every
// frame, for the case regression tests in tests/cases/.
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"

#include <gtest/gtest.h>

#include <cstdio>

#include <stdexcept>
#include <string>
#include <vector>

namespace catena::testing {

struct CaseRun {
  fem::Model model;
  RecordingObserver rec;
  solvers::RunStatistics stats;
};

/// Runs `model` from t = 0 to its end on all ranks, every frame kept in `rec`.
inline solvers::RunStatistics run_model(fem::Model& model, RecordingObserver& rec) {
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::TimeIntegrator integrator(model, tableau);
  return integrator.run(rec);
}

inline CaseRun run_case(const std::string& name, std::vector<std::string> overrides = {}) {
  CaseRun c{io::read_model(std::string(CATENA_SOURCE_DIR) + "/cases/" + name + "/model.yaml", overrides), {}, {}};
  c.stats = run_model(c.model, c.rec);
  return c;
}

/// The column of a sensor in RecordingObserver rows.
inline std::size_t sensor_index(const fem::Model& m, const std::string& name) {
  for (std::size_t i = 0; i < m.sensors.size(); ++i)
    if (m.sensors[i].name == name) return i;
  throw std::runtime_error("no sensor " + name);
}

/// The index of a node (in the model's nodes and a row's states).
inline std::size_t node_index(const fem::Model& m, const std::string& name) {
  const auto id = m.find_node(name);
  if (!id) throw std::runtime_error("no node " + name);
  return static_cast<std::size_t>(id->index);
}

/// A sensor at the end of the run (a static run's final load level, its equilibrium).
inline double final_value(const CaseRun& c, const std::string& sensor) {
  return c.rec.rows.back().sensors[sensor_index(c.model, sensor)];
}

/// A body in free flight after t_free (no load from then on): the energy balance over the whole
/// run, and after t_free kinetic + strain energy and the linear and angular momenta, constant
/// within `energy_tolerance` times the energy at t_free (which must show that it flies).
inline void expect_free_flight_conserved(const CaseRun& c, double t_free, double energy_tolerance) {
  const auto& e = c.rec.row_at(t_free).energy.state;
  const double scale = e.kinetic + e.strain;
  EXPECT_GT(scale, 100.0);
  const double tolerance = energy_tolerance * scale;
  EXPECT_LT(c.rec.max_balance_drift(), tolerance);  // loads included
  const auto d = c.rec.drifts_after(t_free);
  EXPECT_LT(d.balance, tolerance);
  EXPECT_LT(d.mechanical, tolerance);
  for (int i = 0; i < 3; ++i) {
    EXPECT_LT(d.p[i], tolerance) << "linear momentum component " << i;
    EXPECT_LT(d.L[i], tolerance) << "angular momentum component " << i;
  }
}

/// Reports a measured value in the test's XML output (--gtest_output=xml), for the case READMEs.
inline void record(const std::string& key, double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  ::testing::Test::RecordProperty(key, text);
}

}  // namespace catena::testing
