// Static equilibria of mechanisms (cases/omar-statics: Omar's pendulum and 50-link chain, seed
// 002): each start run in-process as a static analysis and checked against the closed forms of the
// case's reference.yaml: the potential, every link end straight below the hinge, and the last
// pseudo-transient corrections converging quadratically.
#include "support/case_reference.hpp"
#include "support/case_runner.hpp"

#include <gtest/gtest.h>
#include <petscsys.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace catena {
namespace {

using testing::CaseReference;
using testing::CaseRun;
using testing::run_case;

/// `-newton_monitor` on while it lives (the integrator's Newton and pseudo-transient continuation
/// read it when they are made and at each solve), off again after.
class NewtonMonitor {
 public:
  NewtonMonitor() { PetscOptionsSetValue(nullptr, "-newton_monitor", nullptr); }
  ~NewtonMonitor() { PetscOptionsClearValue(nullptr, "-newton_monitor"); }
  NewtonMonitor(const NewtonMonitor&) = delete;
  NewtonMonitor& operator=(const NewtonMonitor&) = delete;
};

/// The residual norms ‖f‖ before each accepted pseudo-transient correction, from the lines
/// `-newton_monitor` prints (solvers/pseudo_transient.cpp); corrections tried again ("uphill",
/// "failed") are left out, those cut to the length limit kept.
std::vector<double> accepted_residual_norms(const std::string& monitor_output) {
  static const std::regex line(
      R"(^pseudo-transient .* correction \d+ \|f\| (\S+) shift \S+ correction \S+( cut to the limit)?$)");
  std::vector<double> norms;
  std::istringstream in(monitor_output);
  for (std::string text; std::getline(in, text);) {
    std::smatch m;
    if (std::regex_match(text, m, line)) norms.push_back(std::stod(m[1].str()));
  }
  return norms;
}

std::size_t node_index(const fem::Model& model, const std::string& name) {
  for (std::size_t i = 0; i < model.nodes.size(); ++i)
    if (model.nodes[i].name == name) return i;
  throw std::runtime_error("no node " + name);
}

/// Runs one start of cases/omar-statics (`variant`: its entry in reference.yaml; `sets`: the
/// --set of that start) and checks it against the closed forms.
void expect_hanging_straight_down(const std::string& variant, const std::vector<std::string>& sets) {
  const CaseReference ref("omar-statics");
  const int n = static_cast<int>(ref.number(variant + "/n"));
  const double length = ref.number("length");
  CaseRun c = [&] {
    const NewtonMonitor monitor;
    ::testing::internal::CaptureStdout();
    CaseRun run = run_case("omar-statics", sets);
    const std::vector<double> r = accepted_residual_norms(::testing::internal::GetCapturedStdout());
    // Every counted correction printed its line, and the last three above the residual's rounding
    // level (1e-12 of the first: a sum of forces of 50 links) contract quadratically:
    // r3/r2 = (r2/r1)^p with p about 2 (log of the ratios).
    EXPECT_EQ(static_cast<long>(r.size()), run.stats.equilibrium_iterations) << variant;
    std::size_t k = r.size();
    while (k > 0 && r[k - 1] < 1e-12 * r.front()) --k;
    EXPECT_GE(k, 4U) << variant;
    if (k >= 4) {
      const std::size_t last = k - 1;
      const double order = std::log(r[last] / r[last - 1]) / std::log(r[last - 1] / r[last - 2]);
      ::testing::Test::RecordProperty(variant + "_order_" + std::to_string(last + 1), std::to_string(order));
      EXPECT_GE(order, ref.number("convergence_order_min"))
          << variant << ": corrections " << last - 1 << ".." << last + 1 << ", |f| " << r[last - 2] << ", "
          << r[last - 1] << ", " << r[last];
    }
    return run;
  }();
  ASSERT_EQ(c.rec.rows.size(), 2U) << variant;  // t = 0 and the one load step
  EXPECT_EQ(c.stats.steps, 1) << variant;
  EXPECT_EQ(c.stats.cut_steps, 0) << variant;
  EXPECT_GT(c.stats.equilibrium_iterations, 0) << variant;  // Newton alone does not start a mechanism
  ::testing::Test::RecordProperty(variant + "_equilibrium_iterations", std::to_string(c.stats.equilibrium_iterations));
  ::testing::Test::RecordProperty(variant + "_newton_iterations", std::to_string(c.stats.newton_iterations));

  // The potential: energy.csv's is measured from the start; from the hinge height it is the
  // start's closed form plus that.
  const double from_hinge = c.rec.rows.back().energy.state.potential + ref.number(variant + "/start_potential");
  const double hanging = ref.number(variant + "/hanging_potential");
  EXPECT_NEAR(from_hinge, hanging, ref.number("potential_tolerance") * std::abs(hanging)) << variant;

  // Each link's ends as its own rigid motion carries them: the start half-vector h (centre minus
  // upper end at t = 0, upper end of link 1 the hinge at the origin) turned by the node's rotation
  // since t = 0. Hanging straight down, link k reaches from -(k - 1) L to -k L on the z axis.
  const double tol = ref.number("position_tolerance");
  fem::Vec3 upper0 = fem::Vec3::Zero();  // link k's upper end at t = 0
  for (int k = 1; k <= n; ++k) {
    const std::size_t i = node_index(c.model, "link_" + std::to_string(k));
    const fem::NodeState& s0 = c.model.initial_state[i];
    const fem::NodeState& s1 = c.rec.rows.back().states[i];
    const fem::Vec3 h = s0.position - upper0;
    const fem::Vec3 turned = (s1.orientation * s0.orientation.conjugate()) * h;
    const fem::Vec3 upper = s1.position - turned, lower = s1.position + turned;
    EXPECT_NEAR(upper.x(), 0.0, tol) << variant << ", link " << k;
    EXPECT_NEAR(upper.y(), 0.0, tol) << variant << ", link " << k;
    EXPECT_NEAR(upper.z(), -(k - 1) * length, tol) << variant << ", link " << k;
    EXPECT_NEAR(lower.x(), 0.0, tol) << variant << ", link " << k;
    EXPECT_NEAR(lower.y(), 0.0, tol) << variant << ", link " << k;
    EXPECT_NEAR(lower.z(), -k * length, tol) << variant << ", link " << k;
    upper0 = s0.position + h;
  }
}

TEST(CaseOmarStatics, PendulumStartedHorizontalHangsStraightDown) {
  // The hard start: at the horizontal the gravity stiffness of the hinge vanishes.
  expect_hanging_straight_down("pendulum", {"n=1", "theta1=90"});
}

TEST(CaseOmarStatics, TiltedChainHangsStraightDown) {
  // Omar's 50 links, link k at 4 + k degrees from the vertical: the model as it is.
  expect_hanging_straight_down("chain_tilted", {});
}

TEST(CaseOmarStatics, HorizontalChainHangsStraightDown) {
  expect_hanging_straight_down("chain_horizontal", {"theta1=90", "dtheta=0"});
}

}  // namespace
}  // namespace catena
