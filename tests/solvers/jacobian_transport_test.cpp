// Co-rotated chord corrections (solvers/jacobian_transport.hpp): a model's Jacobian is objective,
// J(Q q) = T J(q) Tᵀ when the whole time element (start and end) turns by Q, with T turning every
// triple declared as turning (fem::BlockInfo::turns_with) by the rotation its node made; and the
// transport finds that T from the nodes' axes alone. Beams, a rigid body with its centre off its
// node, a spherical joint between bodies (reactions in a body's axes: unchanged) and one to the
// ground (reactions in global axes: turned with the node they hold), all moving. No gravity: a
// fixed field is not objective (the moment of an offset body's weight depends on its axes; the
// transported Jacobian then misses by about m g |c|, which Newton's test sees like any other).
#include "assembly/tableau.hpp"
#include "fem/rotation.hpp"
#include "fem/step_rotation.hpp"
#include "io/model_reader.hpp"
#include "solvers/jacobian_transport.hpp"
#include "support/step_context.hpp"
#include "support/test_files.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace catena::solvers {
namespace {

using fem::Mat3;
using fem::Vec3;

const std::string model_text = R"yaml(name: transport
nodes:
  - {name: a, position: [0, 0, 0]}
  - {name: b, position: [2, 0.3, -0.2]}
  - {name: c, position: [2.5, 0.3, -0.2]}
beams:
  - name: beam
    from: a
    to: b
    elements: 2
    section: {EA: 1e6, GAy: 4e5, GAz: 4e5, GJ: 80, EIy: 100, EIz: 120, rhoA: 2, rhoJ: 0.02, rhoIy: 0.01, rhoIz: 0.01}
rigid_bodies:
  - {name: body, node: c, mass: 3, inertia: [0.02, 0.1, 0.12], offset: [0.1, 0, 0]}
joints:
  - {name: pin, kind: spherical, node: a, at: [0, 0, 0]}
  - {name: link, kind: spherical, nodes: [b, c], at: [2, 0.3, -0.2]}
analysis: {dt: 0.01, t_end: 1}
)yaml";

/// v's triples that turn, turned by Q (the model's blocks in the tableau's numbering).
void turn_all(const fem::Model& m, const assembly::Tableau& t, const Mat3& Q, std::vector<double>& v) {
  for (std::size_t b = 0; b < m.registry.n_blocks(); ++b) {
    const fem::BlockInfo& info = m.registry.block(fem::BlockId{static_cast<std::int32_t>(b)});
    if (!info.turns_with) continue;
    const auto dofs = t.global_map().dofs(fem::BlockId{static_cast<std::int32_t>(b)});
    for (int k = 0; k + 3 <= info.size; k += 3) {
      int fixed = 0;
      for (int i = 0; i < 3; ++i) fixed += dofs[static_cast<std::size_t>(k + i)] == fem::fixed_dof ? 1 : 0;
      if (fixed == 3) continue;  // the spherical pin's moments
      ASSERT_EQ(fixed, 0) << info.owner;
      Vec3 x;
      for (int i = 0; i < 3; ++i) x[i] = v[static_cast<std::size_t>(dofs[static_cast<std::size_t>(k + i)])];
      const Vec3 y = Q * x;
      for (int i = 0; i < 3; ++i) v[static_cast<std::size_t>(dofs[static_cast<std::size_t>(k + i)])] = y[i];
    }
  }
}

assembly::VecHandle vector_of(const assembly::Tableau& t, const std::vector<double>& values) {
  assembly::VecHandle v = t.create_vector();
  PetscScalar* a = nullptr;
  EXPECT_EQ(VecGetArray(v, &a), 0);
  std::copy(values.begin(), values.end(), a);
  EXPECT_EQ(VecRestoreArray(v, &a), 0);
  return v;
}

TEST(JacobianTransport, TurnsAKeptJacobianIntoTheJacobianOfTheTurnedModel) {
  int ranks = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  if (ranks != 1) GTEST_SKIP() << "serial numbering";
  const fem::Model m = io::read_model(testing::write_temp("catena_transport", "model.yaml", model_text));
  assembly::Tableau t(m, PETSC_COMM_WORLD);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto random_vec = [&](double s) { return Vec3(s * u(rng), s * u(rng), s * u(rng)); };

  // A moving start state and a trial state: increments, rotations and reactions of all sizes.
  std::vector<fem::NodeState> start = m.initial_state;
  for (fem::NodeState& s : start) {
    s.position += random_vec(0.05);
    s.velocity = random_vec(2.0);
    s.orientation = fem::Quaternion(fem::exp_map<double>(random_vec(0.2)));
    s.angular_velocity = random_vec(3.0);
  }
  std::vector<double> trial(static_cast<std::size_t>(t.n_global()));
  for (double& x : trial) x = 0.02 * u(rng);
  for (std::size_t b = 0; b < m.registry.n_blocks(); ++b)
    if (m.registry.block(fem::BlockId{static_cast<std::int32_t>(b)}).kind == fem::UnknownKind::Multiplier)
      for (const fem::Dof d : t.global_map().dofs(fem::BlockId{static_cast<std::int32_t>(b)}))
        if (d != fem::fixed_dof) trial[static_cast<std::size_t>(d)] = 50.0 * u(rng);

  // The same time element turned as a whole about a point by Q.
  const Mat3 Q = fem::exp_map<double>(Vec3(0.4, -0.7, 1.1));
  const Vec3 centre(0.3, -1.0, 0.5);
  std::vector<fem::NodeState> turned_start = start;
  for (fem::NodeState& s : turned_start) {
    s.position = centre + Q * (s.position - centre);
    s.velocity = Q * s.velocity;
    s.orientation = fem::Quaternion(Mat3(Q * s.orientation.toRotationMatrix()));
    s.angular_velocity = Q * s.angular_velocity;
  }
  std::vector<double> turned_trial = trial;
  turn_all(m, t, Q, turned_trial);

  const fem::StepState step = testing::midpoint_step(m, start, 0.0, 0.01);
  const fem::StepState turned_step = testing::midpoint_step(m, turned_start, 0.0, 0.01);
  const assembly::VecHandle x = vector_of(t, trial), x_turned = vector_of(t, turned_trial);

  // The Jacobian of the turned element, and the kept one applied through the transport.
  t.assemble_jacobian(turned_step, x_turned, t.jacobian());
  assembly::MatHandle turned_jacobian;
  ASSERT_EQ(MatDuplicate(t.jacobian(), MAT_COPY_VALUES, turned_jacobian.out()), 0);
  t.assemble_jacobian(step, x, t.jacobian());
  JacobianTransport transport(t);
  transport.record(step, x);
  EXPECT_FALSE(transport.active());
  transport.update(turned_step, x_turned);
  ASSERT_TRUE(transport.active());

  // T J Tᵀ v against J_turned v for random v.
  assembly::VecHandle v = t.create_vector(), w = t.create_vector(), expected = t.create_vector();
  double largest = 0.0;
  for (int trial_vector = 0; trial_vector < 3; ++trial_vector) {
    ASSERT_EQ(VecSetRandom(v, nullptr), 0);
    ASSERT_EQ(MatMult(turned_jacobian, v, expected), 0);
    transport.to_jacobian_axes(v);
    ASSERT_EQ(MatMult(t.jacobian(), v, w), 0);
    transport.from_jacobian_axes(w);
    PetscReal scale = 0.0, miss = 0.0;
    ASSERT_EQ(VecNorm(expected, NORM_INFINITY, &scale), 0);
    ASSERT_EQ(VecAXPY(w, -1.0, expected), 0);
    ASSERT_EQ(VecNorm(w, NORM_INFINITY, &miss), 0);
    largest = std::max(largest, miss / scale);
  }
  EXPECT_LT(largest, 1e-12);

  // Untransported, the kept Jacobian misses by the turn itself: the test can fail.
  ASSERT_EQ(VecSetRandom(v, nullptr), 0);
  ASSERT_EQ(MatMult(turned_jacobian, v, expected), 0);
  ASSERT_EQ(MatMult(t.jacobian(), v, w), 0);
  ASSERT_EQ(VecAXPY(w, -1.0, expected), 0);
  PetscReal scale = 0.0, miss = 0.0;
  ASSERT_EQ(VecNorm(expected, NORM_INFINITY, &scale), 0);
  ASSERT_EQ(VecNorm(w, NORM_INFINITY, &miss), 0);
  EXPECT_GT(miss / scale, 1e-2);
}

TEST(JacobianTransport, SavedAxesRestoreTheSameTurn) {
  const fem::Model m = io::read_model(testing::write_temp("catena_transport", "model.yaml", model_text));
  assembly::Tableau t(m, PETSC_COMM_WORLD);
  std::vector<fem::NodeState> later = m.initial_state;
  for (fem::NodeState& s : later) s.orientation = fem::Quaternion(fem::exp_map<double>(Vec3(0.1, 0.2, -0.3)));
  const fem::StepState first = testing::midpoint_step(m, m.initial_state, 0.0, 0.01);
  const fem::StepState second = testing::midpoint_step(m, later, 0.01, 0.01);
  assembly::VecHandle x = t.create_vector();
  ASSERT_EQ(VecSet(x, 0.01), 0);

  JacobianTransport kept(t), restored(t);
  EXPECT_TRUE(kept.saved().empty());  // nothing recorded yet
  kept.record(first, x);
  const std::vector<double> axes = kept.saved();
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  const std::size_t n_axes = 9 * m.nodes.size();  // every node is a frame node
  if (rank == 0) {
    EXPECT_EQ(axes.size(), n_axes);
  }
  std::vector<double> everywhere = axes;
  everywhere.resize(n_axes);
  MPI_Bcast(everywhere.data(), static_cast<int>(everywhere.size()), MPI_DOUBLE, 0, PETSC_COMM_WORLD);
  restored.restore(everywhere);
  kept.update(second, x);
  restored.update(second, x);
  ASSERT_TRUE(restored.active());
  assembly::VecHandle v1 = t.create_vector(), v2 = t.create_vector();
  ASSERT_EQ(VecSetRandom(v1, nullptr), 0);
  ASSERT_EQ(VecCopy(v1, v2), 0);
  kept.from_jacobian_axes(v1);
  restored.from_jacobian_axes(v2);
  PetscBool equal = PETSC_FALSE;
  ASSERT_EQ(VecEqual(v1, v2, &equal), 0);
  EXPECT_TRUE(equal);
  // Axes of another model are not taken: no turn.
  JacobianTransport other(t);
  other.restore(std::vector<double>(9, 1.0));
  other.update(second, x);
  EXPECT_FALSE(other.active());
}

}  // namespace
}  // namespace catena::solvers
