#pragma once
/// What the time integrator reports to the outside world (io/ implements these: VTK, CSV,
/// progress). The solver knows no file formats; observers know no PETSc.
#include "fem/energy.hpp"
#include "fem/model.hpp"

#include <span>

namespace catena::solvers {

/// One row of energy.csv: state functions at t plus path quantities accumulated since t = 0.
struct EnergyRecord {
  double t = 0.0;
  fem::StateEnergy state;
  fem::StepWork work;  ///< accumulated from t = 0
  /// kinetic + strain + potential + dissipated − external_work: constant for every model.
  [[nodiscard]] double balance() const {
    return state.kinetic + state.strain + state.potential + work.dissipated - work.external_work;
  }
};

/// A committed instant: at t = 0, every `output_every` nominal steps (rows), every `vtk_every`
/// steps or `vtk_dt` seconds (VTK frames), and at the end. Observers write what it is due for.
struct Frame {
  double t = 0.0;
  long step = 0;  ///< number of nominal steps completed
  const fem::Model* model = nullptr;
  std::span<const fem::NodeState> states;  ///< every node, global frame, SI
  EnergyRecord energy;
  bool row = true;  ///< a row of energy.csv and sensors.csv is due
  bool vtk = true;  ///< a VTK frame is due
};

/// Progress of a long run, after every nominal step.
struct Progress {
  double t = 0.0;
  double t_start = 0.0;  ///< where this process started (0, or the checkpoint's time on --restart)
  double t_end = 0.0;
  long step = 0;
  int newton_iterations = 0;  ///< of the last time element
  double wall_seconds = 0.0;
};

struct IntegratorState;  // solvers/integrator_state.hpp

/// Under MPI, `on_frame` is called on every rank (each keeps every node state: VTK pieces are
/// written per rank), `on_progress` and `on_checkpoint` on rank 0 only. An observer that writes
/// one file for the whole run (CSV) is registered on rank 0 only (io/commands.cpp).
class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_frame(const Frame&) {}
  virtual void on_progress(const Progress&) {}
  /// Every `analysis.checkpoint_every` nominal steps (and when a run is interrupted, if that is
  /// set): everything needed to continue the run bit for bit (io/checkpoint.hpp writes it).
  virtual void on_checkpoint(const IntegratorState&) {}
};

}  // namespace catena::solvers
