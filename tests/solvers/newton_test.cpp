// Newton's convergence test in time steps (solvers/newton.hpp): a multiplier whose error moves no
// position must still converge. A short shaft is spun up by a revolute joint to the ground that
// prescribes its end's spin and holds the end in place: the drive's torque is a multiplier that
// no position sees, and its work over the prescribed turn enters the energy balance.
#include "support/test_files.hpp"
#include "assembly/tableau.hpp"
#include "io/model_reader.hpp"
#include "solvers/time_integrator.hpp"
#include "support/recording_observer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace catena {
namespace {

// The rotating shaft's section (cases/rotating-shaft) on 1 m, an unbalanced disk at the free end,
// spun up from rest to 20 rad/s at 0.5 s and back to rest at 1 s.
const std::string driven_shaft = R"yaml(name: driven-shaft
nodes:
  - {name: end1, position: [0, 0, 0]}
  - {name: end2, position: [1, 0, 0]}
beams:
  - name: shaft
    from: end1
    to: end2
    elements: 4
    section: {EA: 3e8, GAy: 6e7, GAz: 6e7, GJ: 3e5, EIy: 3.5e5, EIz: 3.5e5,
              rhoA: 11.6, rhoJ: 2.6e-2, rhoIy: 1.3e-2, rhoIz: 1.3e-2, radius: 0.05}
rigid_bodies:
  - {name: wheel, node: end2, mass: 70, inertia: [2, 1, 1], offset: [0, 0, 0.05]}
joints:
  - name: drive
    kind: revolute
    node: end1
    at: [0, 0, 0]
    axis: [1, 0, 0]
    laws:
      rz: {prescribed: "10*(t - 0.5/pi*sin(2*pi*t))"}
gravity: [0, 0, -9.81]
analysis: {dt: 1e-3, t_end: 1}
)yaml";

TEST(Newton, TheTorqueOfADriveHoldingItsNodeWhollyConvergesWithTheBalance) {
  // With the multipliers left out of the test, steps were accepted with the drive's torque off:
  // at the default tolerance the balance drifted by 1.4e-5 J (3e-8 of the largest kinetic
  // energy, 444 J); with them tested, 1.4e-9 J.
  fem::Model model = io::read_model(testing::write_temp("catena_newton", "model.yaml", driven_shaft));
  ASSERT_EQ(model.analysis.newton_tolerance, 1e-10);
  assembly::Tableau tableau(model, PETSC_COMM_WORLD);
  solvers::TimeIntegrator integrator(model, tableau);
  testing::RecordingObserver rec;
  static_cast<void>(integrator.run(rec));
  EXPECT_NEAR(rec.rows.back().t, 1.0, 1e-12);
  double kinetic = 0.0;
  for (const auto& row : rec.rows) kinetic = std::max(kinetic, row.energy.state.kinetic);
  EXPECT_GT(kinetic, 400.0);  // spun up
  EXPECT_LT(rec.max_balance_drift(), 1e-9 * kinetic) << "largest kinetic energy " << kinetic;
}

}  // namespace
}  // namespace catena
