#pragma once
/// A run's state between two nominal steps: what a checkpoint holds (io/checkpoint.hpp).
#include "fem/energy.hpp"
#include "fem/node.hpp"
#include "solvers/newton.hpp"
#include "solvers/run_counters.hpp"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace catena::solvers {

/// CSV rows an uninterrupted run has written up to a nominal step (t = 0, the output grid; not the
/// extra row of an interruption), the step and time of the last of them; the same for VTK frames.
struct FramesWritten {
  long frames = 0;
  long last_frame_step = 0;
  double last_frame_t = 0.0;
  long vtk_frames = 0;
  long last_vtk_frame_step = 0;
  double last_vtk_frame_t = 0.0;
};

/// A run between two nominal steps, complete enough to continue it bit for bit in another process
/// (a checkpoint, io/checkpoint.hpp): the integrator's own state, every node state, every
/// element's history (`fem::Element::save_history`) and the counters that an uninterrupted run
/// would carry on.
struct IntegratorState {
  double t = 0.0;
  long step = 0;        ///< nominal steps completed
  double h = 0.0;       ///< step size control: the current (possibly cut) step [s]
  int successes = 0;    ///< step size control: converged sub-steps since the last cut or doubling
  FramesWritten written;
  double balance0 = 0.0;  ///< energy balance at t = 0, the reference of max_energy_drift
  double objective = 0.0;            ///< the objective's integral so far (solvers/objective.hpp)
  double objective_integrand = 0.0;  ///< its integrand at the state
  std::vector<fem::NodeState> states;
  fem::StepWork work;  ///< accumulated from t = 0
  /// Static analyses: the secant predictor's last increment per node (Δx, φ) and its size.
  std::vector<Eigen::Matrix<double, 6, 1>> last_increment;
  double last_increment_h = 0.0;
  std::vector<std::vector<double>> element_history;  ///< one entry per model element
  /// The run's counters up to here; a continued run carries on those marked Carry::Across.
  RunCounters counters;
  KeptJacobian kept_jacobian;  ///< Newton's Jacobian kept across steps (run state)
  /// With --sensitivity: the parameters, and the state's derivatives with respect to each
  /// (solvers::DirectSensitivity::save); else empty.
  std::vector<std::string> sensitivity_parameters;
  std::vector<double> sensitivity;
  /// The model's named inputs as a program set them (fem::Inputs::values); empty in a checkpoint
  /// of a format before them (the model's initial values are kept).
  std::vector<double> inputs;
};

}  // namespace catena::solvers
