#include "io/beam_axes.hpp"

#include "elements/beam.hpp"
#include "io/model/values.hpp"
#include "io/yaml_cursor.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string_view>
#include <utility>

namespace catena::io {

namespace {

/// Unit vectors closer than this are the same direction (round-off of the axes' construction).
constexpr double direction_tolerance = 1e-9;
using reader::axis_names;
constexpr std::array<std::string_view, 3> planes_normal_to{"y-z", "x-z", "x-y"};
/// Beyond this many, a group of beams that read the same is named by its first ones and a count.
constexpr std::size_t names_listed = 4;

/// The global axis a unit vector lies along, if any.
std::optional<int> global_axis(const fem::Vec3& v) {
  for (int g = 0; g < 3; ++g)
    if (std::abs(v[g]) > 1.0 - direction_tolerance) return g;
  return std::nullopt;
}

/// A unit vector to four digits, round-off written as 0: "[0.7071, 0.7071, 0]".
std::string format_direction(const fem::Vec3& v) {
  std::string out = "[";
  for (int k = 0; k < 3; ++k) {
    std::array<char, 32> buffer{};
    std::snprintf(buffer.data(), buffer.size(), "%.4g", std::abs(v[k]) < direction_tolerance ? 0.0 : v[k]);
    out += (k > 0 ? ", " : "") + std::string(buffer.data());
  }
  return out + "]";
}

/// Local axis `j` (0: x, 1: y, 2: z) of a beam definition, when all its elements share it.
std::optional<fem::Vec3> common_axis(const std::vector<fem::Mat3>& axes, int j) {
  for (const fem::Mat3& a : axes)
    if (!((a.col(j) - axes.front().col(j)).norm() < direction_tolerance)) return std::nullopt;
  return axes.front().col(j);
}

/// "global z", "-global y", or the vector.
std::string direction_text(const fem::Vec3& v) {
  if (const std::optional<int> g = global_axis(v))
    return std::string(v[*g] < 0.0 ? "-global " : "global ") + std::string(axis_names[static_cast<std::size_t>(*g)]);
  return format_direction(v);
}

/// The plane a bending stiffness bends the beam in: the one normal to local axis j (y for EIy).
std::string plane_text(const std::optional<fem::Vec3>& normal, int j) {
  const std::string local = j == 1 ? "x-z" : "x-y";
  if (!normal) return "its local " + local + " plane, which turns along the beam";
  if (const std::optional<int> g = global_axis(*normal))
    return "the global " + std::string(planes_normal_to[static_cast<std::size_t>(*g)]) + " plane";
  return "the plane normal to " + format_direction(*normal) + " (local " + local + ")";
}

/// "local x = global x, y = global z, z = -global y", or "local z = global z; x and y turn along
/// the beam".
std::string local_axes_text(const std::array<std::optional<fem::Vec3>, 3>& common) {
  std::string given;
  std::vector<std::string_view> turning;
  for (std::size_t j = 0; j < 3; ++j) {
    if (!common[j]) {
      turning.push_back(axis_names[j]);
      continue;
    }
    given += (given.empty() ? "" : ", ") + std::string(axis_names[j]) + " = " + direction_text(*common[j]);
  }
  if (turning.empty()) return "local " + given;
  std::string turns;
  for (std::size_t k = 0; k < turning.size(); ++k)
    turns += std::string(k == 0 ? "" : k + 1 == turning.size() ? " and " : ", ") + std::string(turning[k]);
  turns += std::string(turning.size() == 1 ? " turns" : " turn") + " along the beam";
  return given.empty() ? "local " + turns : "local " + given + "; " + turns;
}

/// What one beam definition's elements say about their section axes at t = 0.
std::string describe(const fem::Model& model, const std::vector<const elements::Beam*>& beams) {
  std::vector<fem::Mat3> axes;
  for (const elements::Beam* beam : beams) axes.push_back(beam->section_axes(model.initial_state));
  const std::array<std::optional<fem::Vec3>, 3> common{common_axis(axes, 0), common_axis(axes, 1),
                                                       common_axis(axes, 2)};
  const elements::BeamSection& section = beams.front()->section();
  return "EIy = " + format_number(section.EIy) + " N m^2 bends in " + plane_text(common[1], 1) + ", EIz = " +
         format_number(section.EIz) + " N m^2 in " + plane_text(common[2], 2) + "; " + local_axes_text(common);
}

/// "beam arm", "beams a, b", "beams a, b, c, d, ... (12 beams)".
std::string beam_names(const std::vector<std::string>& names) {
  std::string out = names.size() == 1 ? "beam " : "beams ";
  for (std::size_t k = 0; k < names.size() && k < names_listed; ++k) out += (k > 0 ? ", " : "") + names[k];
  if (names.size() > names_listed) out += ", ... (" + std::to_string(names.size()) + " beams)";
  return out;
}

}  // namespace

std::vector<std::string> describe_beam_axes(const fem::Model& model) {
  // Definitions that read the same share a line (a repeat block's beams), in the model's order.
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (const fem::NamedSet& group : model.element_groups) {
    std::vector<const elements::Beam*> beams;
    for (const fem::Element* e : group.elements)
      if (const auto* beam = dynamic_cast<const elements::Beam*>(e)) beams.push_back(beam);
    if (beams.empty() || beams.size() != group.elements.size()) continue;
    std::string text = describe(model, beams);
    auto same = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == text; });
    if (same == groups.end()) same = groups.insert(groups.end(), {std::move(text), {}});
    same->second.push_back(group.name);
  }
  std::vector<std::string> lines;
  for (const auto& [text, names] : groups) lines.push_back(beam_names(names) + ": " + text);
  return lines;
}

}  // namespace catena::io
