#include "io/linearized_cell_values.hpp"

#include "fem/rotation.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>

namespace catena::io {

namespace {

/// The values an element sets through `cell_values`, in its order.
class RecordedValues final : public fem::CellValueSink {
 public:
  struct Value {
    std::string field;
    bool vector = false;
    fem::Vec3 value = fem::Vec3::Zero();
  };
  void set(std::string_view field, double value) override { values.push_back({std::string(field), false, {value, 0.0, 0.0}}); }
  void set_vector(std::string_view field, const fem::Vec3& v) override { values.push_back({std::string(field), true, v}); }
  std::vector<Value> values;
};

}  // namespace

LinearizedCellValues::LinearizedCellValues(const fem::Model& model, std::span<const fem::NodeState> about)
    : model_(model), about_(about.begin(), about.end()), plus_(about_), minus_(about_) {}

void LinearizedCellValues::set_frame(std::span<const fem::NodeState> states) {
  if (states.size() != about_.size())
    throw std::invalid_argument("linearized cell values: a frame of " + std::to_string(states.size()) +
                                " node states for " + std::to_string(about_.size()) + " nodes");
  const double length = model_.length_scale;
  std::vector<fem::Vec3> du(states.size()), dr(states.size());
  double largest = 0.0;
  for (std::size_t n = 0; n < states.size(); ++n) {
    du[n] = states[n].position - about_[n].position;
    dr[n] = fem::rotation_vector(states[n].orientation * about_[n].orientation.conjugate());
    largest = std::max({largest, du[n].norm(), length * dr[n].norm()});
    for (fem::NodeState* s : {&about_[n], &plus_[n], &minus_[n]}) {
      s->velocity = states[n].velocity;
      s->angular_velocity = states[n].angular_velocity;
    }
  }
  inverse_difference_ = 0.0;
  if (!(largest > 0.0)) return;
  const double h = relative_step * length / largest;
  for (std::size_t n = 0; n < states.size(); ++n) {
    plus_[n].position = about_[n].position + h * du[n];
    minus_[n].position = about_[n].position - h * du[n];
    plus_[n].orientation = (fem::quaternion_from_rotation_vector(h * dr[n]) * about_[n].orientation).normalized();
    minus_[n].orientation = (fem::quaternion_from_rotation_vector(-h * dr[n]) * about_[n].orientation).normalized();
  }
  inverse_difference_ = 0.5 / h;
}

void LinearizedCellValues::element_values(const fem::Element& element, fem::CellValueSink& out) const {
  RecordedValues at, plus, minus;
  element.cell_values(about_, at);
  if (inverse_difference_ != 0.0) {
    element.cell_values(plus_, plus);
    element.cell_values(minus_, minus);
  }
  for (std::size_t k = 0; k < at.values.size(); ++k) {
    const RecordedValues::Value& v = at.values[k];
    fem::Vec3 value = v.value;
    if (inverse_difference_ != 0.0) {
      // Elements set their fields unconditionally, in one order (io/vtk_writer.cpp relies on it too).
      if (k >= plus.values.size() || k >= minus.values.size() || plus.values[k].field != v.field ||
          minus.values[k].field != v.field)
        throw std::logic_error("element '" + element.name() + "' sets other cell values at other states");
      value += inverse_difference_ * (plus.values[k].value - minus.values[k].value);
    }
    if (v.vector)
      out.set_vector(v.field, value);
    else
      out.set(v.field, value.x());
  }
}

std::string LinearizedCellValues::description() const {
  return "linearized: each value is the element's value at the state the modes belong to plus its first-order "
         "change along this frame's displacement from that state (the mode drawn at its amplitude), as the "
         "displacements are; joints' reactions are the state's";
}

}  // namespace catena::io
