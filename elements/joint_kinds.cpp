#include "elements/joint_kinds.hpp"

#include <stdexcept>
#include <string>

namespace catena::elements {

JointDefinition joint_definition(std::string_view kind) {
  // 'p': prescribed, 'f': free; ε_x ε_y ε_z ρ_x ρ_y ρ_z.
  struct Row {
    std::string_view kind, switches;
  };
  static constexpr std::array<Row, 8> table{{{"clamp", "pppppp"},
                                             {"spherical", "pppfff"},
                                             {"revolute", "pppppf"},
                                             {"prismatic", "ppfppp"},
                                             {"cylindrical", "ppfppf"},
                                             {"universal", "pppffp"},
                                             {"planar", "ffpppf"},
                                             {"free", "ffffff"}}};
  for (const Row& row : table) {
    if (row.kind != kind) continue;
    JointDefinition d;
    d.kind = std::string(kind);
    for (std::size_t k = 0; k < 6; ++k)
      d.laws[k].kind = row.switches[k] == 'p' ? JointLawKind::Prescribed : JointLawKind::Free;
    if (kind == "universal") d.rotation = RotationCoordinates::Cardan;
    return d;
  }
  throw std::invalid_argument("unknown joint kind '" + std::string(kind) + "'");
}

}  // namespace catena::elements
