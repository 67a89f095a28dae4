#pragma once
/// What the time integrator reports to the outside world (io/ implements these: VTK, CSV,
/// progress). The solver knows no file formats; observers know no PETSc.
#include "fem/energy.hpp"
#include "fem/model.hpp"

#include <array>
#include <span>
#include <string_view>

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

/// The columns of energy.csv after t (fem/energy.hpp names them), and their values from a record in
/// that order.
using fem::energy_column_names;
[[nodiscard]] inline std::array<double, 12> energy_columns(const EnergyRecord& e) {
  return {e.state.kinetic,        e.state.strain,         e.state.potential,      e.work.external_work,
          e.work.dissipated,      e.balance(),            e.state.momentum.x(),   e.state.momentum.y(),
          e.state.momentum.z(),   e.state.angular_momentum.x(), e.state.angular_momentum.y(),
          e.state.angular_momentum.z()};
}

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
  /// With `catena run --sensitivity`, on rows: the derivatives of the sensors and energy columns
  /// with respect to each parameter (solvers::DirectSensitivity::row, its column_names' order).
  std::span<const double> sensitivities{};
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
