#pragma once
/// The sensors an element's laws of the motion read (fem/law_sensors.hpp), on a time element: each
/// sensor's value where the law is evaluated and its exact derivatives (dual numbers through the
/// sensor's formulas, fem/sensor_kinematics.hpp) by the unknowns of the nodes it reads, and the
/// columns of the Newton matrix those derivatives land in. Where a sensor is read:
///   Along  a dynamic step at s ∈ [0, 1] of the step: x = x_n + s Δx, R = cay(s b) R_n, v = Δx/h,
///          ω = b/h, the straight path of the step's unknowns and its mean rates, as the laws take
///          their own coordinates (elements/joint.hpp, elements/nodal_load.hpp); derivatives by each
///          node's (Δx, b)
///   End    a static step's end, x = x_n + Δx, R = cay(b) R_n, rates zero; derivatives by (Δx, b)
///   Rates  the state of a linearized analysis, rates zero; derivatives by the nodes' rates (v, ω),
///          the damping of the linearized problem (its stiffness comes from the End reading)
/// An element's field (a joint's relative coordinate, Element::law_field) is read along the step as
/// the straight path from its value at the start to its value at the end, f_n + s (f_{n+1} − f_n),
/// as a joint's law takes its own coordinates, with the end's derivatives; it has none by rates.
/// A rotation sensor's vector jumps where its angle passes π: read past 3 rad, it throws
/// fem::LawError (a DomainError: the step is cut, and a run that stays there fails naming it).
#include "fem/element.hpp"
#include "fem/law_sensors.hpp"

#include <Eigen/Core>

#include <cstdint>
#include <span>
#include <vector>

namespace catena::elements {

enum class SensorReading : std::uint8_t { Along, End, Rates };

/// Derivatives of sensor values or of laws by the sensor columns: 6 per node (Δx, b) or (v, ω).
using SensorGradient = Eigen::Matrix<double, 1, Eigen::Dynamic>;
template <int Rows>
using SensorJacobian = Eigen::Matrix<double, Rows, Eigen::Dynamic>;

class LawSensorColumns {
 public:
  /// The nodes that the sensors `indices` of `table` read (bound: Element::couple_law_sensors).
  void set(const fem::LawSensors& table, std::span<const std::size_t> indices);
  [[nodiscard]] bool empty() const { return nodes_.empty(); }
  /// The nodes, in the order of the gradients' columns.
  [[nodiscard]] std::span<const fem::LawSensorNode> nodes() const { return nodes_; }
  /// The number of derivatives: 6 per node.
  [[nodiscard]] Eigen::Index size() const { return 6 * static_cast<Eigen::Index>(nodes_.size()); }
  /// The nodes' blocks (displacement, then rotation for a frame node), for UnknownRegistry::couple.
  [[nodiscard]] std::vector<fem::BlockId> blocks() const;
  /// Sensor `index` of `table` read `how` at `at` (Along only) of the step `s`; its derivatives into
  /// `gradient` (size(), overwritten).
  double read(const fem::LawSensors& table, std::size_t index, const fem::StepState& s, SensorReading how, double at,
              SensorGradient& gradient) const;
  /// Adds `d` (rows: the components of `row`; columns: the gradients' layout) to the Jacobian.
  template <int Rows>
  void add_to(fem::JacobianSink& j, fem::BlockId row, const SensorJacobian<Rows>& d) const {
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
      const auto c = static_cast<Eigen::Index>(6 * n);
      j.add<Rows, 3>(row, nodes_[n].displacement, Eigen::Matrix<double, Rows, 3>(d.template middleCols<3>(c)));
      if (nodes_[n].rotation.valid())
        j.add<Rows, 3>(row, nodes_[n].rotation, Eigen::Matrix<double, Rows, 3>(d.template middleCols<3>(c + 3)));
    }
  }

 private:
  [[nodiscard]] Eigen::Index column_of(fem::NodeId node) const;
  /// An element field's term (unweighted) of a sensor, its weighted derivatives added to `gradient`.
  double read_field(const fem::LawSensorTerm& term, const fem::StepState& s, SensorReading how, double at,
                    SensorGradient& gradient) const;
  std::vector<fem::LawSensorNode> nodes_;
};

}  // namespace catena::elements
