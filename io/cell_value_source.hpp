#pragma once
/// Where a VTK frame's cell data come from (io/vtk_writer.hpp): by default each element's
/// `cell_values` at the frame's node states. A writer given a source asks it instead, and writes
/// what the source says the values are into every frame's field data (string `cell_data`).
#include "fem/element.hpp"
#include "fem/node.hpp"

#include <span>
#include <string>

namespace catena::io {

class CellValueSource {
 public:
  virtual ~CellValueSource() = default;
  /// The frame whose elements' values are asked for next (its states outlive those calls).
  virtual void set_frame(std::span<const fem::NodeState> states) = 0;
  /// `element`'s values at the frame last set, through the same fields as its `cell_values`.
  virtual void element_values(const fem::Element& element, fem::CellValueSink& out) const = 0;
  /// What the values are, for a reader of the files.
  [[nodiscard]] virtual std::string description() const = 0;
};

}  // namespace catena::io
