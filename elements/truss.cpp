#include "elements/truss.hpp"

namespace catena::elements {

TrussForce truss_force(const Vec3& x21_n, const Vec3& d, double EA, double l0, fem::TimeScheme scheme) {
  const Vec3 x21_e = x21_n + d;
  const double l_n = x21_n.norm();
  const double l_e = x21_e.norm();
  if (!(l_e > 1e-12 * l0)) throw fem::DomainError("bar collapsed to zero length");
  const double k = EA / l0;
  const double N_n = k * (l_n - l0);
  const double N_e = k * (l_e - l0);
  const Vec3 e_e = x21_e / l_e;
  TrussForce out;
  if (scheme == fem::TimeScheme::Midpoint) {
    const Vec3 x21_m = x21_n + 0.5 * d;
    const double sum_l = l_n + l_e;
    const double c = (N_n + N_e) / sum_l;            // = N_m / l_m
    const double dc = (k * sum_l - (N_n + N_e)) / (sum_l * sum_l);  // ∂c/∂l_e, with ∂l_e/∂d = e_eᵀ
    out.f = c * x21_m;
    out.K = dc * x21_m * e_e.transpose() + 0.5 * c * Mat3::Identity();
  } else if (scheme == fem::TimeScheme::Static) {
    out.f = N_e * e_e;
    out.K = k * e_e * e_e.transpose() + (N_e / l_e) * (Mat3::Identity() - e_e * e_e.transpose());
  } else {
    const Vec3 e_n = x21_n / l_n;
    out.f = 0.5 * (N_n * e_n + N_e * e_e);
    out.K = 0.5 * (k * e_e * e_e.transpose() + (N_e / l_e) * (Mat3::Identity() - e_e * e_e.transpose()));
  }
  return out;
}

Truss::Truss(std::string name, const fem::AttachedNode& a, const fem::AttachedNode& b, TrussSection section,
             double rest_length)
    : Element(std::move(name)),
      nodes_{a.id, b.id},
      blocks_{a.node.displacement, b.node.displacement},
      section_(section),
      l0_(rest_length) {}

void Truss::declare(fem::UnknownRegistry& registry) { registry.couple(blocks_); }

void Truss::stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const {
  const auto [a, b] = nodes_;
  const Vec3 x21_n = s.at_start(b).position - s.at_start(a).position;
  const Vec3 d = s.increment(b) - s.increment(a);
  const TrussForce t = truss_force(x21_n, d, section_.EA, l0_, s.time.scheme);
  r.add<3>(blocks_[0], -t.f);
  r.add<3>(blocks_[1], t.f);
  const Mat3 minus_K = -t.K;
  j.add<3, 3>(blocks_[0], blocks_[0], t.K);
  j.add<3, 3>(blocks_[0], blocks_[1], minus_K);
  j.add<3, 3>(blocks_[1], blocks_[0], minus_K);
  j.add<3, 3>(blocks_[1], blocks_[1], t.K);
}

double Truss::axial_force(std::span<const fem::NodeState> states) const {
  const double l = (states[nodes_[1].index].position - states[nodes_[0].index].position).norm();
  return section_.EA * (l - l0_) / l0_;
}

void Truss::add_energy(std::span<const fem::NodeState> states, const fem::Vec3& /*gravity*/,
                       fem::StateEnergy& e) const {
  const double N = axial_force(states);
  e.strain += 0.5 * N * N * l0_ / section_.EA;
}

void Truss::cell_values(std::span<const fem::NodeState> states, fem::CellValueSink& out) const {
  out.set("axial_force", axial_force(states));
}

std::array<EndSection, 2> Truss::end_sections(std::span<const fem::NodeState> states) const {
  const Vec3& xa = states[nodes_[0].index].position;
  const Vec3& xb = states[nodes_[1].index].position;
  const Vec3 e = (xb - xa).normalized();
  // A truss has no section axes: any pair normal to the chord completes it.
  const Mat3 axes = fem::Quaternion::FromTwoVectors(Vec3::UnitX(), e).toRotationMatrix();
  const Vec3 f = axial_force(states) * e;  // the internal force at b
  return {end_section(0, Vec3(-f), Vec3::Zero(), xa, xa, axes), end_section(1, f, Vec3::Zero(), xb, xb, axes)};
}

void Truss::end_values(std::span<const fem::NodeState> states, fem::EndValueSink& out) const {
  write_end_sections(end_sections(states), out);
}

}  // namespace catena::elements
