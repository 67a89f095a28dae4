#include "elements/joint.hpp"

#include "elements/joint_kinds.hpp"
#include "elements/joint_kinematics.hpp"
#include "elements/step_quadrature.hpp"
#include "elements/two_frame_step.hpp"

#include <algorithm>
#include <cmath>

namespace catena::elements {

namespace {

using Vec6 = Eigen::Matrix<double, 6, 1>;
using Vec12 = Eigen::Matrix<double, 12, 1>;
using two_frame::Configuration;
using two_frame::Instant;
using joint_kinematics::carrier;
using joint_kinematics::configuration_of;
using joint_kinematics::Kinematics;
using joint_kinematics::kinematics_of;
using joint_kinematics::relative_rotation;

double law_value(const JointLaw& law, double t) { return law.function ? (*law.function)(t) : 0.0; }

/// The relative coordinates of configuration q, the rotations unwrapped near those of `e`.
Vec6 coordinates_at(const std::array<JointFrame, 2>& frames, const JointDefinition& def, const Vec6& e,
                    const Mat3& relative_rotation_at_commit, const Configuration<double>& q) {
  return kinematics_of(frames, def, e.tail<3>(), relative_rotation_at_commit)(q.xa, q.Ra, q.xb, q.Rb);
}

}  // namespace

struct Joint::Start {
  Configuration<double> q;  ///< frame carriers at t_n (ground: its point and axes)
  Kinematics f;
  Vec6 E0;                  ///< E(q_n)
  bool active = true;
  bool ground = false;
};

Joint::Joint(std::string name, std::span<const fem::AttachedNode> nodes, const JointFrame& a, const JointFrame& b,
             JointDefinition definition, double length_scale)
    : Element(std::move(name)), frames_{a, b}, def_(std::move(definition)), length_scale_(length_scale) {
  const std::string who = "joint '" + this->name() + "': ";
  if (!b.node) throw std::invalid_argument(who + "frame B must be on a node");
  if (a.node && *a.node == *b.node) throw std::invalid_argument(who + "both frames are on the same node");
  if (!(length_scale > 0.0)) throw std::invalid_argument(who + "the length scale must be positive");
  // Each frame's node among `nodes`, in frame order (the ground has none).
  std::array<const fem::AttachedNode*, 2> attached{};
  std::size_t next = 0;
  for (std::size_t k = 0; k < 2; ++k) {
    if (!frames_[k].node) continue;
    if (next == nodes.size() || nodes[next].id != *frames_[k].node)
      throw std::invalid_argument(who + "the nodes given are not those of its frames");
    attached[k] = &nodes[next++];
    const fem::Node& n = attached[k]->node;
    if (!n.rotation.valid()) throw std::invalid_argument(who + "node '" + n.name + "' is not a frame node");
    displacement_[k] = n.displacement;
    rotation_[k] = n.rotation;
  }
  if (next != nodes.size()) throw std::invalid_argument(who + "the nodes given are not those of its frames");
  for (const JointLaw& law : def_.laws)
    if (law.law_inputs.size() > max_law_inputs || (!law.law_inputs.empty() && !def_.inputs) ||
        law.law_sensors.size() > max_law_inputs || (!law.law_sensors.empty() && !def_.law_sensors) ||
        (law.law && law.law->variables().size() !=
                        joint_law_variables.size() + law.law_sensors.size() + law.law_inputs.size()))
      throw std::invalid_argument(who + "a law of the motion must read the joint's variables and at most " +
                                  std::to_string(max_law_inputs) + " of the model's sensors and inputs each");
  for (const Mat3& Q : {a.axes, b.axes})
    if (!((Q.transpose() * Q - Mat3::Identity()).cwiseAbs().maxCoeff() < 1e-9 && Q.determinant() > 0.0))
      throw std::invalid_argument(who + "joint axes must be a rotation");
  // The carriers at t = 0, from the attached nodes' initial states.
  Configuration<double> q0;
  std::tie(q0.xa, q0.Ra) = carrier(a, a.node ? &attached[0]->initial : nullptr);
  std::tie(q0.xb, q0.Rb) = carrier(b, &attached[1]->initial);
  relative_rotation_ = relative_rotation(kinematics_of(frames_, def_, Vec3::Zero(), Mat3::Identity()), q0);
  e_ = coordinates_at(frames_, def_, e_, relative_rotation_, q0);
  active_now_ = active_at(0.0);
  axes0_ = a.node ? Mat3(attached[0]->initial.orientation.toRotationMatrix() * a.axes) : a.axes;
}

std::vector<fem::AttachedNode> attach_frames(const fem::Model& model, const JointFrame& a, const JointFrame& b) {
  std::vector<fem::AttachedNode> nodes;
  for (const JointFrame* f : {&a, &b})
    if (f->node) nodes.push_back(model.attach(*f->node));
  return nodes;
}

Joint::~Joint() = default;

Vec12 Joint::step_unknowns(const fem::StepState& s) const {
  Vec12 u = Vec12::Zero();
  for (std::size_t k = 0; k < 2; ++k) {
    if (!frames_[k].node) continue;  // the ground
    u.segment<3>(6 * static_cast<Eigen::Index>(k)) = s.values<3>(displacement_[k]);
    u.segment<3>(6 * static_cast<Eigen::Index>(k) + 3) = s.values<3>(rotation_[k]);
  }
  return u;
}

void Joint::declare(fem::UnknownRegistry& registry) {
  const std::string owner = "joint '" + name() + "'";
  reaction_ = registry.add_block(owner, "reaction", fem::UnknownKind::Multiplier, 6);
  // A free component without a force law carries no force: its multiplier is not an unknown.
  for (int k = 0; k < 6; ++k)
    if (!has_multiplier(k)) registry.fix(reaction_, k);
  // A drive's force does work over a step (an ideal constraint's, g = 0, next to none).
  for (int k = 0; k < 6; ++k) {
    const JointLaw& law = def_.laws[static_cast<std::size_t>(k)];
    if (has_multiplier(k) && (law.kind == JointLawKind::PrescribedRate ||
                              (law.kind == JointLawKind::Prescribed && law.function)))
      registry.drive(reaction_, k);
  }
  // In frame A's axes: a body's axes (unchanged by a rigid rotation of the model), or the
  // ground's, which are global: the reactions then turn with the node they hold.
  if (!frames_[0].node) registry.turn_with(reaction_, *frames_[1].node);
  std::vector<fem::BlockId> blocks{reaction_};
  for (int k = 0; k < 2; ++k)
    if (frames_[k].node) {
      blocks.push_back(displacement_[k]);
      blocks.push_back(rotation_[k]);
    }
  registry.couple(blocks);
}

std::vector<fem::BlockId> Joint::couple_law_sensors() {
  std::vector<std::size_t> sensors;
  for (const JointLaw& law : def_.laws) sensors.insert(sensors.end(), law.law_sensors.begin(), law.law_sensors.end());
  if (sensors.empty()) return {};
  sensor_columns_.set(*def_.law_sensors, sensors);
  std::vector<fem::BlockId> blocks = sensor_columns_.blocks();
  blocks.insert(blocks.begin(), reaction_);
  return blocks;
}

Eigen::Matrix<double, 6, 1> Joint::relative_coordinates(std::span<const fem::NodeState> states) const {
  return coordinates_at(frames_, def_, e_, relative_rotation_, configuration_of(frames_, states));
}

const Joint::Start& Joint::start(const fem::StepState& s, bool rotations) const {
  return rotations ? start_.get(s, [&] { return start_of(s, true); })
                   : translation_start_.get(s, [&] { return start_of(s, false); });
}

Joint::Start Joint::start_of(const fem::StepState& s, bool rotations) const {
  Start st;
  st.q = configuration_of(frames_, s.committed);
  st.f = kinematics_of(frames_, def_, e_.tail<3>(), Mat3::Identity());
  st.E0.head<3>() = st.f.translation(st.q.xa, st.q.Ra, st.q.xb, st.q.Rb);
  st.E0.tail<3>() = e_.tail<3>();
  if (rotations) {
    // The reference rotation is the start's own, so that E(q_n) = e_n exactly.
    st.f.reference_rotation = relative_rotation(st.f, st.q);
    st.E0.tail<3>() = st.f.rotation(st.q.xa, st.q.Ra, st.q.xb, st.q.Rb);
  }
  st.active = active_in_step(s);
  st.ground = !frames_[0].node;
  return st;
}

/// E(q_{n+1}) for the groups (ε, ρ) that have multipliers (`used`; the others read zero: no row
/// needs them, and a spherical joint's free rotation would cost a logarithm), and the rows of the
/// gradient that carries λ to the nodes for the groups whose multipliers can be nonzero
/// (`loaded`): the discrete gradient over the step, or the gradient at the end in statics. A group
/// whose three multipliers are held at zero by their own rows (free components without a force
/// law) gets no rows: the node rows do not depend on them.
template <class S>
std::pair<Eigen::Matrix<S, 6, 1>, Eigen::Matrix<S, 6, 12>> kinematics_and_gradient(
    const Configuration<double>& q, const Kinematics& f, const Vec6& E0, const Eigen::Matrix<S, 12, 1>& u,
    const std::array<bool, 2>& used, const std::array<bool, 2>& loaded, bool is_static, double length,
    two_frame::Symmetry symmetry) {
  const Configuration<S> end = two_frame::along_step(q, u, Instant::End);
  Eigen::Matrix<S, 6, 1> E1 = Eigen::Matrix<S, 6, 1>::Zero();
  if (used[0]) E1.template head<3>() = f.translation(end.xa, end.Ra, end.xb, end.Rb);
  if (used[1]) E1.template tail<3>() = f.rotation(end.xa, end.Ra, end.xb, end.Rb);
  Eigen::Matrix<S, 6, 12> G = Eigen::Matrix<S, 6, 12>::Zero();
  for (int g = 0; g < 2; ++g) {
    if (!loaded[static_cast<std::size_t>(g)]) continue;
    const auto gradient = [&](const auto& c) {
      return g == 0 ? f.translation_gradient(c) : f.rotation_gradient(c);
    };
    if (is_static) {
      G.template middleRows<3>(3 * g) = gradient(end);
    } else if (g == 0) {
      G.template middleRows<3>(0) = f.translation_discrete_gradient(f.step_averages(q, u));
    } else {
      // Held rotations: exact; the others (drives, springs, dampers): Gonzalez's form.
      if (!(f.held[0] && f.held[1] && f.held[2])) {
        const Eigen::Matrix<S, 3, 1> delta = E1.template segment<3>(3) - E0.segment<3>(3).cast<S>();
        G.template middleRows<3>(3) = two_frame::discrete_gradient<3>(q, u, delta, gradient, length, symmetry);
      }
      const Eigen::Matrix<S, 3, 12> exact = f.director_discrete_gradient(f.step_averages(q, u));
      for (int k = 0; k < 3; ++k)
        if (f.held[static_cast<std::size_t>(k)]) G.row(3 + k) = exact.row(k);
    }
  }
  return {E1, G};
}

/// What the node rows need when only the translational group has multipliers (a spherical joint)
/// in a dynamic step: E1 = ε(q_{n+1}) = J_a1ᵀ d_1 and the node rows f = −Gᵀλ of its exact discrete
/// gradient (Kinematics::translation_discrete_gradient), with their derivatives in u by hand.
/// With the Cayley step's spatial tangent Γ = tangent_cayley(b) (δC = (Γ δb)^ C), every turned
/// vector varies as δ(C v) = −(C v)^ Γ δb, so
///   δE1 = J_a1ᵀ (δx_b − δx_a + (a_a1 + d_1)^ Γ_a δb_a − a_b1^ Γ_b δb_b),
/// and with g = J̄_a λ (δg = −½ (J_a1 λ)^ Γ_a δb_a) and the arm ā_a + d̄ (its variation
/// ½ (δx_b − δx_a − a_b1^ Γ_b δb_b): the a_a1 terms cancel),
///   f = (g, (ā_a + d̄)^ g, −g, −ā_b^ g).
/// The automatic differentiation of kinematics_and_gradient is its test oracle
/// (Joint::stamp_by_automatic_differentiation; both are also checked against central
/// differences). `loaded` false: no node rows; `derivatives` false: no dE and dforce (a residual).
struct TranslationStep {
  Vec3 E1;
  Eigen::Matrix<double, 3, 12> dE, G;
  Vec12 force;
  Eigen::Matrix<double, 12, 12> dforce;
};

/// What translation_step needs from the start of the step: frame A's axes J_a0 = R_a Q_a, the
/// offsets a_a0 = R_a c_a, a_b0 = R_b c_b and the separation d_0 = x_b − x_a + a_b0 − a_a0 at t_n
/// (under half the full start's size: a chain of 10⁵ bars reads it at every pass).
struct TranslationStart {
  Mat3 Ja0;
  Vec3 aa0, ab0, d0;
};

TranslationStart translation_start(const Kinematics& k, const Configuration<double>& q) {
  TranslationStart t;
  t.Ja0 = q.Ra * k.Qa;
  t.aa0 = q.Ra * k.ca;
  t.ab0 = q.Rb * k.cb;
  t.d0 = q.xb - q.xa + t.ab0 - t.aa0;
  return t;
}

TranslationStep translation_step(const TranslationStart& st, const Vec12& u, const Vec3& lambda, bool loaded,
                                 bool derivatives) {
  const Vec3 ba = u.segment<3>(3), bb = u.segment<3>(9);
  const Mat3 Ca = fem::step_rotation(ba), Cb = fem::step_rotation(bb);
  const Mat3& Ja0 = st.Ja0;
  const Mat3 Ja1 = Ca * Ja0;
  const Vec3 &aa0 = st.aa0, &ab0 = st.ab0, &d0 = st.d0;
  const Vec3 aa1 = Ca * aa0, ab1 = Cb * ab0;
  const Vec3 d1 = d0 + u.segment<3>(6) - u.segment<3>(0) + ab1 - ab0 - aa1 + aa0;
  TranslationStep t;
  t.E1 = Ja1.transpose() * d1;
  t.G.setZero();
  t.force.setZero();
  Mat3 Ga, Gb;
  if (derivatives) {
    Ga = fem::tangent_cayley(ba);
    Gb = fem::tangent_cayley(bb);
    const Mat3 Ja1T = Ja1.transpose();
    t.dE << -Ja1T, Ja1T * fem::skew(Vec3(aa1 + d1)) * Ga, Ja1T, -(Ja1T * fem::skew(ab1) * Gb);
    t.dforce.setZero();
  }
  if (!loaded) return t;
  const Mat3 Jm = 0.5 * (Ja0 + Ja1);
  const Vec3 arm = 0.5 * (aa0 + aa1 + d0 + d1), abm = 0.5 * (ab0 + ab1);
  const Mat3 JmT = Jm.transpose();
  t.G << -JmT, JmT * fem::skew(arm), JmT, -(JmT * fem::skew(abm));
  const Vec3 g = Jm * lambda;
  t.force << g, arm.cross(g), -g, -abm.cross(g);
  if (!derivatives) return t;
  // δg and δarm as 3 × 12 matrices over u = (δx_a, δb_a, δx_b, δb_b).
  Eigen::Matrix<double, 3, 12> dg = Eigen::Matrix<double, 3, 12>::Zero(), darm = dg, dabm = dg;
  dg.block<3, 3>(0, 3) = -0.5 * fem::skew(Vec3(Ja1 * lambda)) * Ga;
  darm.block<3, 3>(0, 0) = -0.5 * Mat3::Identity();
  darm.block<3, 3>(0, 6) = 0.5 * Mat3::Identity();
  darm.block<3, 3>(0, 9) = -0.5 * fem::skew(ab1) * Gb;
  dabm.block<3, 3>(0, 9) = darm.block<3, 3>(0, 9);
  const Mat3 gx = fem::skew(g);
  t.dforce.middleRows<3>(0) = dg;
  t.dforce.middleRows<3>(3) = fem::skew(arm) * dg - gx * darm;
  t.dforce.middleRows<3>(6) = -dg;
  t.dforce.middleRows<3>(9) = -(fem::skew(abm) * dg) + gx * dabm;
  return t;
}

void Joint::stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const {
  stamp_with(s, r, j, true);
}

void Joint::stamp_by_automatic_differentiation(const fem::StepState& s, fem::ResidualSink& r,
                                                fem::JacobianSink& j) const {
  stamp_with(s, r, j, false);
}

/// The start of the step as the stamp's by-hand path for a joint without rotational multipliers
/// reads it (translation_step), with what the constitutive rows read.
struct Joint::StampStart {
  TranslationStart translation;
  Vec6 E0;
  bool active = true;
};

void Joint::stamp_with(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j, bool by_hand) const {
  const Vec12 u = step_unknowns(s);
  const Vec6 lambda = s.values<6>(reaction_);
  const bool is_static = s.time.is_static();
  // The groups with multipliers, or read by a law of the motion.
  const std::array<bool, 2> used{carries_force(true, 0) || laws_read(0), carries_force(true, 1) || laws_read(1)};
  // A joint whose rotations carry no multiplier (a spherical one) never evaluates them here, and
  // in a dynamic step its rows come by hand from a compact start.
  const bool translation_by_hand = by_hand && !is_static && !used[1];
  const Start* full = translation_by_hand ? nullptr : &start(s, used[1]);
  const StampStart* compact = translation_by_hand ? &stamp_start_.get(s, [&] {
    const Start st = start_of(s, false);
    return StampStart{translation_start(st.f, st.q), st.E0, st.active};
  })
                                                  : nullptr;
  const bool active = full ? full->active : compact->active;
  const Vec6& E0 = full ? full->E0 : compact->E0;
  const two_frame::Symmetry symmetry =
      full && full->ground ? two_frame::Symmetry::None : two_frame::Symmetry::Rigid;
  const std::array<bool, 2> loaded{carries_force(active, 0), carries_force(active, 1)};

  // E(q_{n+1}) and node rows −Gᵀλ, with their derivatives in u (automatic differentiation only
  // when the Jacobian is wanted).
  Vec6 E1;
  Vec12 f;
  // Derivatives only when a Jacobian is wanted: a residual-only pass (most passes of a chord
  // Newton method) neither fills nor stamps them.
  const bool jacobian = j.wanted();
  Eigen::Matrix<double, 6, 12> dE, Gv;
  Eigen::Matrix<double, 12, 12> df;
  if (jacobian) {
    dE.setZero();
    df.setZero();
  }
  if (translation_by_hand) {
    const TranslationStep t = translation_step(compact->translation, u, lambda.head<3>(), loaded[0], jacobian);
    E1 << t.E1, Vec3::Zero();
    f = t.force;
    if (jacobian) {
      Gv.setZero();
      Gv.topRows<3>() = t.G;
      dE.topRows<3>() = t.dE;
      df = t.dforce;
    }
  } else if (jacobian) {
    using D = ad::Dual<12>;
    const Start& st = *full;
    const auto [E1d, Gd] =
        kinematics_and_gradient(st.q, st.f, st.E0, ad::variables<12>(u), used, loaded, is_static, length_scale_,
                                symmetry);
    const Eigen::Matrix<D, 12, 1> force = -(Gd.transpose() * ad::constant<D>(lambda));
    E1 = ad::values(E1d);
    dE = ad::jacobian(E1d);
    f = ad::values(force);
    df = ad::jacobian(force);
    for (int a = 0; a < 6; ++a)
      for (int b = 0; b < 12; ++b) Gv(a, b) = Gd(a, b).value();
  } else {
    const Start& st = *full;
    std::tie(E1, Gv) = kinematics_and_gradient(st.q, st.f, st.E0, u, used, loaded, is_static, length_scale_, symmetry);
    f = -(Gv.transpose() * lambda);
  }

  // Constitutive rows, one per component with a multiplier (the sinks skip the others), in the
  // relative coordinates e_{n+1} = E(q_{n+1}) of the end of the step: c(E(q), λ) = 0 with
  // derivatives dc/de dE and dc/dλ; a law of the motion couples the components (dlaw_de).
  Vec6 c = Vec6::Zero(), dc_de = Vec6::Zero(), dc_dl = Vec6::Zero();
  Eigen::Matrix<double, 6, 6> dlaw_de = Eigen::Matrix<double, 6, 6>::Zero();
  // A law that reads sensors: its row's derivatives by the nodes they read.
  SensorJacobian<6> dc_dsensors = SensorJacobian<6>::Zero(6, sensor_columns_.size());
  SensorGradient by_columns;
  bool coupled = false;
  const double t1 = s.time.t_end();
  for (int k = 0; k < 6; ++k) {
    const JointLaw& law = def_.laws[static_cast<std::size_t>(k)];
    if (!active) {
      c[k] = lambda[k];
      dc_dl[k] = 1.0;
      continue;
    }
    switch (law.kind) {
      case JointLawKind::Prescribed:
        c[k] = E1[k] - law_value(law, t1);
        dc_de[k] = 1.0;
        break;
      case JointLawKind::PrescribedRate:
        c[k] = E1[k] - E0[k] - 0.5 * s.time.h * (law_value(law, s.time.t_n) + law_value(law, t1));
        dc_de[k] = 1.0;
        break;
      case JointLawKind::Free:
      case JointLawKind::Spring:
        if (is_static) {
          c[k] = lambda[k] + law.stiffness * (E1[k] - law.rest) - s.time.external_load_factor() * law_value(law, t1);
          dc_de[k] = law.stiffness;
        } else {
          c[k] = lambda[k] + law.stiffness * (0.5 * (E0[k] + E1[k]) - law.rest) +
                 law.damping * (E1[k] - E0[k]) / s.time.h - 0.5 * (law_value(law, s.time.t_n) + law_value(law, t1));
          dc_de[k] = 0.5 * law.stiffness + law.damping / s.time.h;
        }
        if (law.law) {
          Row6 dF;
          c[k] -= law_over_step(k, s, E0, E1, dF, by_columns);
          dlaw_de.row(k) = -dF;
          if (!sensor_columns_.empty()) dc_dsensors.row(k) = -by_columns;
          coupled = true;
        }
        dc_dl[k] = 1.0;
        break;
    }
  }
  r.add<6>(reaction_, c);
  for (int k = 0; k < 2; ++k) {
    if (!frames_[k].node) continue;
    r.add<3>(displacement_[k], Vec3(f.segment<3>(6 * k)));
    r.add<3>(rotation_[k], Vec3(f.segment<3>(6 * k + 3)));
  }
  if (!jacobian) return;
  j.add<6, 6>(reaction_, reaction_, Eigen::Matrix<double, 6, 6>(dc_dl.asDiagonal()));
  if (!sensor_columns_.empty()) sensor_columns_.add_to(j, reaction_, dc_dsensors);
  Eigen::Matrix<double, 6, 12> dc_du = dc_de.asDiagonal() * dE;
  if (coupled) dc_du += dlaw_de * dE;
  for (int k = 0; k < 2; ++k) {
    if (!frames_[k].node) continue;
    const std::array<fem::BlockId, 2> rows{displacement_[k], rotation_[k]};
    for (int p = 0; p < 2; ++p) {
      const int rp = 6 * k + 3 * p;
      j.add<3, 6>(rows[p], reaction_, Eigen::Matrix<double, 3, 6>(-Gv.transpose().block<3, 6>(rp, 0)));
      j.add<6, 3>(reaction_, rows[p], Eigen::Matrix<double, 6, 3>(dc_du.block<6, 3>(0, rp)));
      for (int l = 0; l < 2; ++l) {
        if (!frames_[l].node) continue;
        const std::array<fem::BlockId, 2> cols{displacement_[l], rotation_[l]};
        for (int q = 0; q < 2; ++q) j.add<3, 3>(rows[p], cols[q], Mat3(df.block<3, 3>(rp, 6 * l + 3 * q)));
      }
    }
  }
}

double Joint::law_at(int k, double t, double t_inputs, const Vec6& e, const Vec6& rate, std::span<const double> sensors,
                     Row6& by_e, Row6& by_rate, std::span<double> by_sensor) const {
  const JointLaw& law = def_.laws[static_cast<std::size_t>(k)];
  constexpr std::size_t n = joint_law_variables.size();
  std::array<double, n + 2 * max_law_inputs> x{};
  for (int j = 0; j < 6; ++j) {
    x[static_cast<std::size_t>(j)] = e[j];
    x[static_cast<std::size_t>(6 + j)] = rate[j];
  }
  x[12] = e[k];
  x[13] = rate[k];
  const std::size_t m = n + sensors.size();
  std::copy(sensors.begin(), sensors.end(), x.begin() + n);
  for (std::size_t i = 0; i < law.law_inputs.size(); ++i) x[m + i] = def_.inputs->held(law.law_inputs[i], t_inputs);
  std::array<double, n + max_law_inputs> g{};
  const double F = law.law->evaluate(t, std::span<const double>(x.data(), m + law.law_inputs.size()),
                                     std::span<double>(g.data(), m));
  for (int j = 0; j < 6; ++j) {
    by_e[j] = g[static_cast<std::size_t>(j)];
    by_rate[j] = g[static_cast<std::size_t>(6 + j)];
  }
  by_e[k] += g[12];
  by_rate[k] += g[13];
  std::copy(g.begin() + n, g.begin() + static_cast<std::ptrdiff_t>(m), by_sensor.begin());
  return F;
}

double Joint::law_reading_sensors(int k, const fem::StepState& s, SensorReading how, double at, const Vec6& e,
                                  const Vec6& rate, Row6& by_e, Row6& by_rate, SensorGradient& by_columns,
                                  double weight) const {
  const std::vector<std::size_t>& read = def_.laws[static_cast<std::size_t>(k)].law_sensors;
  std::array<double, max_law_inputs> values{}, by_sensor{};
  std::array<SensorGradient, max_law_inputs> gradients;
  for (std::size_t i = 0; i < read.size(); ++i)
    values[i] = sensor_columns_.read(*def_.law_sensors, read[i], s, how, at, gradients[i]);
  const double t = how == SensorReading::Along ? s.time.t_n + at * s.time.h : s.time.t_end();
  const double F = law_at(k, t, s.time.t_n, e, rate, std::span(values.data(), read.size()), by_e, by_rate,
                          std::span(by_sensor.data(), read.size()));
  for (std::size_t i = 0; i < read.size(); ++i) by_columns += (weight * by_sensor[i]) * gradients[i];
  return F;
}

double Joint::law_over_step(int k, const fem::StepState& s, const Vec6& E0, const Vec6& E1, Row6& dE1,
                            SensorGradient& by_columns) const {
  Row6 by_e, by_rate;
  by_columns.setZero(sensor_columns_.size());
  if (s.time.is_static())
    return law_reading_sensors(k, s, SensorReading::End, 1.0, E1, Vec6::Zero(), dE1, by_rate, by_columns, 1.0);
  const Vec6 rate = (E1 - E0) / s.time.h;
  double F = 0.0;
  dE1.setZero();
  for (std::size_t q = 0; q < step_quadrature::points.size(); ++q) {
    const double sq = step_quadrature::points[q], w = step_quadrature::weights[q];
    F += w * law_reading_sensors(k, s, SensorReading::Along, sq, E0 + sq * (E1 - E0), rate, by_e, by_rate, by_columns, w);
    dE1 += w * (sq * by_e + by_rate / s.time.h);
  }
  return F;
}

void Joint::stamp_rates(const fem::StepState& s, fem::JacobianSink&, fem::JacobianSink& damping) const {
  // The constitutive row λ + k (e − e_rest) + c ė − F(e, ė) − f = 0 of a free or sprung
  // component, with ė = B(q) q̇: (c − ∂F/∂ė) B on the node rates, ∂F/∂ė at the state with rates zero.
  if (!active_in_step(s)) return;
  // A law's sensors: −∂F/∂y ∂y/∂(v, ω) on the rates of the nodes they read.
  Eigen::Matrix<double, 6, 6> c = Eigen::Matrix<double, 6, 6>::Zero();
  SensorJacobian<6> c_sensors = SensorJacobian<6>::Zero(6, sensor_columns_.size());
  const Start& st = start(s);
  const Configuration<double> q = two_frame::along_step(st.q, step_unknowns(s), Instant::End);
  for (int k = 0; k < 6; ++k) {
    const JointLaw& law = def_.laws[static_cast<std::size_t>(k)];
    if (law.kind != JointLawKind::Free && law.kind != JointLawKind::Spring) continue;
    c(k, k) = law.damping;
    if (law.law) {
      Row6 by_e, by_rate;
      SensorGradient by_columns = SensorGradient::Zero(sensor_columns_.size());
      static_cast<void>(law_reading_sensors(k, s, SensorReading::Rates, 1.0, st.f(q.xa, q.Ra, q.xb, q.Rb), Vec6::Zero(),
                                            by_e, by_rate, by_columns, 1.0));
      c.row(k) -= by_rate;
      if (!sensor_columns_.empty()) c_sensors.row(k) = -by_columns;
    }
  }
  if (!sensor_columns_.empty()) sensor_columns_.add_to(damping, reaction_, c_sensors);
  if (c.isZero()) return;
  const Eigen::Matrix<double, 6, 12> cB = c * two_frame::value_and_gradient<6>(q, st.f).second;
  for (int k = 0; k < 2; ++k) {
    if (!frames_[k].node) continue;
    damping.add<6, 3>(reaction_, displacement_[k], Eigen::Matrix<double, 6, 3>(cB.block<6, 3>(0, 6 * k)));
    damping.add<6, 3>(reaction_, rotation_[k], Eigen::Matrix<double, 6, 3>(cB.block<6, 3>(0, 6 * k + 3)));
  }
}

void Joint::release_out_of_plane(const Vec3& normal, fem::UnknownRegistry& registry) {
  const Vec3 n = axes0_.transpose() * normal.normalized();
  int k = 0;
  n.cwiseAbs().maxCoeff(&k);
  if (!(std::abs(n[k]) > 1.0 - 1e-9))
    throw std::invalid_argument("joint '" + name() + "': in a planar model one of its axes must be normal to the plane");
  for (int c = 0; c < 6; ++c) {
    const bool out_of_plane = c < 3 ? c == k : c - 3 != k;
    if (!out_of_plane) continue;
    JointLaw& law = def_.laws[static_cast<std::size_t>(c)];
    // The coordinate stays 0 in the plane: a drive, a force, or a spring's pull towards another
    // rest value would be taken by the plane and do nothing. A spring at rest or a damper does
    // nothing there anyway.
    if (law.function || law.law || (law.stiffness != 0.0 && law.rest != 0.0)) {
      static constexpr std::array<const char*, 6> components{"x", "y", "z", "rx", "ry", "rz"};
      throw std::invalid_argument("joint '" + name() + "': component " + components[static_cast<std::size_t>(c)] +
                                  " leaves the plane of a planar model, which would take what its law gives; "
                                  "expected no drive, force or spring rest value on it");
    }
    law = JointLaw{};
    registry.fix(reaction_, c);
  }
}

Eigen::Matrix<double, 6, 12> Joint::rate_gradient(std::span<const fem::NodeState> states) const {
  const Configuration<double> q = configuration_of(frames_, states);
  const Kinematics f = kinematics_of(frames_, def_, e_.tail<3>(), relative_rotation(
      kinematics_of(frames_, def_, Vec3::Zero(), Mat3::Identity()), q));
  return two_frame::value_and_gradient<6>(q, f).second;
}

double Joint::law_rate(int k, double t) const {
  const JointLaw& law = def_.laws[static_cast<std::size_t>(k)];
  if (!law.function) return 0.0;
  if (law.kind == JointLawKind::PrescribedRate) return (*law.function)(t);
  if (law.kind != JointLawKind::Prescribed) return 0.0;
  const double dt = 1e-7 * std::max(1.0, std::abs(t));
  return ((*law.function)(t + dt) - (*law.function)(t)) / dt;
}

void Joint::take_multipliers(std::span<const double> x, const fem::DofMap& map) {
  const auto dofs = map.dofs(reaction_);
  for (std::size_t k = 0; k < 6; ++k)
    lambda_[static_cast<Eigen::Index>(k)] = dofs[k] == fem::fixed_dof ? 0.0 : x[static_cast<std::size_t>(dofs[k])];
}

void Joint::velocity_constraints(double t, std::span<const fem::NodeState> states,
                                 std::vector<fem::VelocityConstraint>& out) const {
  if (!active_at(t)) return;
  const Eigen::Matrix<double, 6, 12> B = rate_gradient(states);
  for (int k = 0; k < 6; ++k) {
    const JointLawKind kind = def_.laws[static_cast<std::size_t>(k)].kind;
    if (kind != JointLawKind::Prescribed && kind != JointLawKind::PrescribedRate) continue;
    fem::VelocityConstraint c{reaction_, k, {}, law_rate(k, t)};
    for (int n = 0; n < 2; ++n)
      if (frames_[static_cast<std::size_t>(n)].node)
        c.gradient.emplace_back(*frames_[static_cast<std::size_t>(n)].node, B.block<1, 6>(k, 6 * n));
    out.push_back(std::move(c));
  }
}

bool Joint::has_multiplier(int component) const {
  const JointLaw& law = def_.laws[static_cast<std::size_t>(component)];
  return law.kind != JointLawKind::Free || law.function.has_value() || law.law.has_value();
}

bool Joint::laws_read(int group) const {
  for (const JointLaw& law : def_.laws) {
    if (!law.law) continue;
    for (int j = 3 * group; j < 3 * group + 3; ++j)
      if (law.law->uses(static_cast<std::size_t>(j)) || law.law->uses(static_cast<std::size_t>(6 + j))) return true;
  }
  return false;
}

/// The end of a step for the unknowns u it was computed for: the frames' carriers and
/// e_{n+1} = E(q_{n+1}).
struct Joint::End {
  std::uint64_t start_id = 0;
  fem::TimeElement time;
  Vec12 u = Vec12::Zero();
  Configuration<double> q;
  Vec6 e = Vec6::Zero();
};

const Joint::End& Joint::end_of(const fem::StepState& s) const {
  const Vec12 u = step_unknowns(s);
  if (!end_ || s.start_id == 0 || s.start_id != end_->start_id || s.time != end_->time || u != end_->u) {
    if (!end_) end_ = std::make_unique<End>();
    const Start& st = start(s);
    end_->start_id = s.start_id;
    end_->time = s.time;
    end_->u = u;
    end_->q = two_frame::along_step(st.q, u, Instant::End);
    end_->e = st.f(end_->q.xa, end_->q.Ra, end_->q.xb, end_->q.Rb);
  }
  return *end_;
}

bool Joint::carries_force(bool active, int group) const {
  if (!active) return false;
  for (int k = 3 * group; k < 3 * group + 3; ++k)
    if (has_multiplier(k)) return true;
  return false;
}

void Joint::commit(const fem::StepState& s) {
  const Start& st = start(s);
  const End& end = end_of(s);
  e_ = end.e;
  lambda_ = s.values<6>(reaction_);
  relative_rotation_ = relative_rotation(st.f, end.q);
  active_now_ = active_in_step(s);
}

void Joint::save_history(std::vector<double>& out) const {
  for (const auto* v : {&e_, &lambda_}) out.insert(out.end(), v->data(), v->data() + 6);
  out.push_back(active_now_ ? 1.0 : 0.0);
  out.insert(out.end(), relative_rotation_.data(), relative_rotation_.data() + 9);
}

void Joint::restore_history(std::span<const double>& in) {
  const std::span<const double> h = fem::take_history(in, 22, *this);
  e_ = Eigen::Map<const Vec6>(h.data());
  lambda_ = Eigen::Map<const Vec6>(h.data() + 6);
  active_now_ = h[12] != 0.0;
  relative_rotation_ = Eigen::Map<const Mat3>(h.data() + 13);
}

void Joint::predict(const fem::StepState& s, fem::PredictionSink& out) const {
  out.set<6>(reaction_, active_in_step(s) ? lambda_ : Vec6::Zero());
}

void Joint::add_energy(std::span<const fem::NodeState>, const fem::Vec3& /*gravity*/, fem::StateEnergy& e) const {
  // The springs' energy at the committed coordinates (a released joint stores none).
  if (!active_now_) return;
  for (int k = 0; k < 6; ++k) {
    const JointLaw& law = def_.laws[static_cast<std::size_t>(k)];
    if (law.kind == JointLawKind::Spring) e.strain += 0.5 * law.stiffness * (e_[k] - law.rest) * (e_[k] - law.rest);
  }
}

void Joint::add_step_work(const fem::StepState& s, fem::StepWork& w) const {
  if (s.time.is_static() || !active_in_step(s)) return;
  const Vec6 e1 = end_of(s).e;
  const Vec6 lambda = s.values<6>(reaction_);
  for (int k = 0; k < 6; ++k) {
    const JointLaw& law = def_.laws[static_cast<std::size_t>(k)];
    const double de = e1[k] - e_[k];
    switch (law.kind) {
      case JointLawKind::Prescribed:
      case JointLawKind::PrescribedRate:
        w.external_work += lambda[k] * de;  // the drive's work (zero for an ideal constraint)
        break;
      case JointLawKind::Free:
      case JointLawKind::Spring:
        w.external_work += 0.5 * (law_value(law, s.time.t_n) + law_value(law, s.time.t_end())) * de;
        if (law.law) {
          Row6 unused;
          SensorGradient unused_columns;
          w.external_work += law_over_step(k, s, e_, e1, unused, unused_columns) * de;
        }
        w.dissipated += law.damping * de * de / s.time.h;
        break;
    }
  }
}

std::optional<Vec3> Joint::output_point(std::span<const fem::NodeState> states) const {
  const fem::NodeState& b = states[frames_[1].node->index];
  return Vec3(b.position + b.orientation * frames_[1].offset);
}

std::optional<Mat3> Joint::output_axes(std::span<const fem::NodeState> states) const {
  const JointFrame& a = frames_[0];
  return a.node ? Mat3(states[static_cast<std::size_t>(a.node->index)].orientation.toRotationMatrix() * a.axes) : a.axes;
}

fem::Drawing Joint::drawing() const {
  fem::Drawing d = fem::drawn_as(fem::DrawnAs::Joint);
  const auto kind = std::find(joint_kinds.begin(), joint_kinds.end(), def_.kind);
  d.joint_kind = kind == joint_kinds.end() ? 0 : static_cast<int>(kind - joint_kinds.begin()) + 1;
  return d;
}

void Joint::attachment_points(std::vector<fem::AttachmentPoint>& out) const {
  if (frames_[0].node) out.push_back({*frames_[0].node, frames_[0].offset, false});
  out.push_back({*frames_[1].node, frames_[1].offset, true});
}

namespace {

constexpr std::array<std::string_view, 6> relative_names{"relative_x",  "relative_y",  "relative_z",
                                                         "relative_rx", "relative_ry", "relative_rz"};

}  // namespace

std::optional<int> Joint::law_field(std::string_view field) const {
  const auto it = std::find(relative_names.begin(), relative_names.end(), field);
  if (it == relative_names.end()) return std::nullopt;
  return static_cast<int>(it - relative_names.begin());
}

std::vector<fem::NodeId> Joint::law_field_nodes() const {
  std::vector<fem::NodeId> nodes;
  for (const JointFrame& f : frames_)
    if (f.node) nodes.push_back(*f.node);
  return nodes;
}

fem::FieldOverStep Joint::law_field_over_step(int index, const fem::StepState& s) const {
  const bool rotation = index >= 3;
  const Start st = start_of(s, rotation);
  const auto [E1, G] = kinematics_and_gradient(st.q, st.f, st.E0, ad::variables<12>(step_unknowns(s)),
                                               {!rotation, rotation}, {false, false}, s.time.is_static(),
                                               length_scale_, two_frame::Symmetry::None);
  fem::FieldOverStep out{st.E0[index], E1[index].value(), {}};
  for (std::size_t k = 0; k < 2; ++k)
    if (frames_[k].node)
      out.by_end.emplace_back(*frames_[k].node,
                              E1[index].derivatives().segment<6>(6 * static_cast<Eigen::Index>(k)).transpose());
  return out;
}

void Joint::cell_values(std::span<const fem::NodeState> states, fem::CellValueSink& out) const {
  static constexpr std::array<std::string_view, 6> reaction_names{"reaction_force_x",  "reaction_force_y",
                                                                   "reaction_force_z",  "reaction_moment_x",
                                                                   "reaction_moment_y", "reaction_moment_z"};
  for (std::size_t k = 0; k < 6; ++k) {
    out.set(reaction_names[k], lambda_[static_cast<Eigen::Index>(k)]);
    out.set(relative_names[k], e_[static_cast<Eigen::Index>(k)]);
  }
  out.set("reaction_force_norm", lambda_.head<3>().norm());
  out.set("reaction_moment_norm", lambda_.tail<3>().norm());
  const Mat3 axes = *output_axes(states);
  out.set_vector("reaction_force_vector", axes * lambda_.head<3>());
  out.set_vector("reaction_moment_vector", axes * lambda_.tail<3>());
}

}  // namespace catena::elements
