#include "elements/node_inertia.hpp"

#include "elements/autodiff.hpp"
#include "fem/rotation.hpp"

#include <map>
#include <stdexcept>
#include <vector>

namespace catena::elements {

namespace {

template <class T>
using V3 = Eigen::Matrix<T, 3, 1>;
template <class T>
using M3 = Eigen::Matrix<T, 3, 3>;

/// F_x, F_θ (header) in the node's rows: (F_x, Tc(b)ᵀ F_θ). Arguments: the node's increment and
/// Cayley step from the committed state, relative rates and accelerations.
template <class T>
Eigen::Matrix<T, 6, 1> inertia_force(const fem::InertiaLump& lump, const TurningFrame& frame, const fem::NodeState& n,
                                     const V3<T>& dx, const V3<T>& b, const V3<T>& v, const V3<T>& w, const V3<T>& a,
                                     const V3<T>& alpha) {
  const M3<T> R = fem::cayley(b) * n.orientation.toRotationMatrix().cast<T>();
  const V3<T> d = R * lump.offset.cast<T>();
  const M3<T> J = R * lump.inertia.cast<T>() * R.transpose();
  const V3<T> Om = frame.angular_velocity.cast<T>();
  const V3<T> c = (n.position - frame.centre).cast<T>() + dx + d;
  const V3<T> acc = a + alpha.cross(d) + w.cross(w.cross(d)) + T(2) * Om.cross(v + w.cross(d)) + Om.cross(Om.cross(c));
  const V3<T> Fx = T(lump.mass) * acc;
  const V3<T> omega = Om + w;
  const V3<T> Ft = d.cross(Fx) + J * (alpha + Om.cross(w)) + omega.cross(J * omega);
  Eigen::Matrix<T, 6, 1> F;
  F << Fx, fem::tangent_cayley(b).transpose() * Ft;
  return F;
}

}  // namespace

fem::InertiaLump merge_lumps(std::span<const fem::InertiaLump> lumps) {
  if (lumps.empty()) throw std::invalid_argument("merge_lumps: no lumps");
  fem::InertiaLump out;
  out.node = lumps.front().node;
  fem::Vec3 first_moment = fem::Vec3::Zero();
  for (const fem::InertiaLump& l : lumps) {
    out.mass += l.mass;
    first_moment += l.mass * l.offset;
  }
  out.offset = out.mass > 0.0 ? fem::Vec3(first_moment / out.mass) : fem::Vec3::Zero();
  // Parallel axes: each lump's inertia moved from its centre to the common one.
  for (const fem::InertiaLump& l : lumps) {
    const fem::Vec3 r = l.offset - out.offset;
    out.inertia += l.inertia + l.mass * (r.squaredNorm() * fem::Mat3::Identity() - r * r.transpose());
  }
  return out;
}

NodeInertia::NodeInertia(std::string name, const fem::AttachedNode& node, std::span<const fem::InertiaLump> lumps,
                         const TurningFrame& frame)
    : Element(std::move(name)), lump_(merge_lumps(lumps)), frame_(frame) {
  if (lump_.node != node.id)
    throw std::invalid_argument("node inertia '" + this->name() + "': its lumps are on another node");
  displacement_ = node.node.displacement;
  rotation_ = node.node.rotation;
  if (!rotation_.valid() && (!lump_.inertia.isZero() || !lump_.offset.isZero()))
    throw std::invalid_argument("node inertia '" + this->name() + "': a point node carries a rotary inertia");
}

void NodeInertia::declare(fem::UnknownRegistry& registry) {
  if (rotation_.valid()) registry.couple({displacement_, rotation_});
  else registry.couple({displacement_});
}

void NodeInertia::stamp(const fem::StepState& s, fem::ResidualSink& r, fem::JacobianSink& j) const {
  // Time elements (the redundancy check at t = 0) see the inertia through its own elements.
  if (!s.time.is_static() || frame_.angular_velocity.isZero()) return;
  using D = ad::Dual<6>;
  Eigen::Matrix<double, 6, 1> q;
  q << s.increment(lump_.node), rotation_.valid() ? s.rotation_increment(lump_.node) : fem::Vec3::Zero();
  const auto x = ad::variables<6>(q);
  const V3<D> zero = V3<D>::Constant(D(0.0));
  const Eigen::Matrix<D, 6, 1> F = inertia_force<D>(lump_, frame_, s.at_start(lump_.node), x.template head<3>(),
                                                    x.template tail<3>(), zero, zero, zero, zero);
  const Eigen::Matrix<double, 6, 1> f = ad::values(F);
  const Eigen::Matrix<double, 6, 6> df = ad::jacobian(F);
  r.add<3>(displacement_, fem::Vec3(f.head<3>()));
  j.add<3, 3>(displacement_, displacement_, fem::Mat3(df.topLeftCorner<3, 3>()));
  if (!rotation_.valid()) return;
  r.add<3>(rotation_, fem::Vec3(f.tail<3>()));
  j.add<3, 3>(displacement_, rotation_, fem::Mat3(df.topRightCorner<3, 3>()));
  j.add<3, 3>(rotation_, displacement_, fem::Mat3(df.bottomLeftCorner<3, 3>()));
  j.add<3, 3>(rotation_, rotation_, fem::Mat3(df.bottomRightCorner<3, 3>()));
}

void NodeInertia::stamp_rates(const fem::StepState& s, fem::JacobianSink& mass, fem::JacobianSink& damping) const {
  // F is linear in the accelerations and, at zero rates, its rate derivative is exact from one
  // dual evaluation in (v, w, a, α) at the state (Δx = 0, b = 0).
  using D = ad::Dual<12>;
  const auto x = ad::variables<12>(Eigen::Matrix<double, 12, 1>::Zero().eval());
  const V3<D> zero = V3<D>::Constant(D(0.0));
  const Eigen::Matrix<D, 6, 1> F = inertia_force<D>(lump_, frame_, s.at_start(lump_.node), zero, zero, x.template segment<3>(0),
                                                    x.template segment<3>(3), x.template segment<3>(6), x.template segment<3>(9));
  const Eigen::Matrix<double, 6, 12> dF = ad::jacobian(F);
  const std::array<fem::BlockId, 2> blocks{displacement_, rotation_};
  const int n = rotation_.valid() ? 2 : 1;
  for (int p = 0; p < n; ++p)
    for (int q = 0; q < n; ++q) {
      damping.add<3, 3>(blocks[p], blocks[q], fem::Mat3(dF.block<3, 3>(3 * p, 3 * q)));
      mass.add<3, 3>(blocks[p], blocks[q], fem::Mat3(dF.block<3, 3>(3 * p, 6 + 3 * q)));
    }
}

void add_node_inertia(fem::Model& model) {
  struct Collect final : fem::InertiaSink {
    std::map<std::int32_t, std::vector<fem::InertiaLump>> by_node;
    void add(const fem::InertiaLump& lump) override {
      if (lump.mass != 0.0 || !lump.inertia.isZero()) by_node[lump.node.index].push_back(lump);
    }
  } lumps;
  for (const auto& e : model.elements) e->inertia_lumps(lumps);
  const fem::LinearizedSettings& a = model.analysis.linearized;
  const TurningFrame frame{a.frame_angular_velocity, a.frame_centre};
  for (const auto& [index, list] : lumps.by_node) {
    const fem::AttachedNode node = model.attach(fem::NodeId{index});
    model.add_element<NodeInertia>("inertia of " + node.node.name, node, list, frame);
  }
}

}  // namespace catena::elements
