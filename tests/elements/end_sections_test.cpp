// Section forces and moments at the ends of beams and trusses (elements/end_sections.hpp): a
// cantilever's statics (every end carries the tip load, and its moment about the tip load's line,
// small and large deflections, an eccentric tip), a constant moment, tension and torsion against
// the elements' cell values, and the named values Element::end_values writes.
#include "elements/end_sections.hpp"
#include "elements/nodal_load.hpp"
#include "elements/truss.hpp"

#include "support/beam_cantilever.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace catena::elements {
namespace {

using fem::Vec3;
using testing::Cantilever;
using testing::constant_load;

/// The cell values an element sets, by name.
struct CellCapture final : fem::CellValueSink {
  std::map<std::string, double, std::less<>> values;
  void set(std::string_view field, double value) override { values[std::string(field)] = value; }
};

CellCapture cell_values_of(const fem::Element& e, std::span<const fem::NodeState> states) {
  CellCapture c;
  e.cell_values(states, c);
  return c;
}

/// For every element end of a cantilever loaded by a force P at its tip node only: the section
/// carries the tip load, S F = P, and its moment about the end point, S M = (x_tip − p) × P,
/// exactly in any deflection (the part beyond the section is in equilibrium); the two ends at an
/// unloaded node agree. Expects the largest misses, relative to |P| and |P| L, below `tolerance`
/// and records them.
void expect_equilibrium_beyond_every_end(const Cantilever& c, std::span<const fem::NodeState> states, const Vec3& P,
                                         double tolerance) {
  const Vec3 tip = states[c.nodes.back().index].position;
  struct {
    double force = 0.0, moment = 0.0, shared_node = 0.0;
  } miss;
  for (std::size_t e = 0; e < c.elements.size(); ++e) {
    const std::array<EndSection, 2> ends = c.elements[e]->end_sections(states);
    for (const EndSection& end : ends) {
      miss.force = std::max(miss.force, (end.axes * end.force - P).norm() / P.norm());
      const Vec3 expected = (tip - end.point).cross(P);
      miss.moment = std::max(miss.moment, (end.axes * end.moment - expected).norm() / (P.norm() * c.L));
    }
    if (e + 1 < c.elements.size()) {
      const EndSection next = c.elements[e + 1]->end_sections(states)[0];
      miss.shared_node = std::max(miss.shared_node, std::max((next.force - ends[1].force).norm() / P.norm(),
                                                             (next.moment - ends[1].moment).norm() / (P.norm() * c.L)));
    }
  }
  ::testing::Test::RecordProperty("force_miss", testing::sci(miss.force));
  ::testing::Test::RecordProperty("moment_miss", testing::sci(miss.moment));
  EXPECT_LT(miss.force, tolerance);
  EXPECT_LT(miss.moment, tolerance);
  EXPECT_LT(miss.shared_node, tolerance);
}

TEST(EndSections, CantileverTipForceSmallDeflection) {
  // A force P along y at the tip of a cantilever along x: at arc length s the section carries
  // Q2 = P and the moment M3 = P (L − s) (M3' = −Q2), so P L at the root and 0 at the tip.
  // P L²/(2 EI) = 7e-4 rad at the tip: linear to 1e-6 (the lever arms shorten by 1e-7 L), and P
  // is 1e8 times the axial forces' rounding, EA times 1e-15 (the exact checks see 7e-9 with it).
  Cantilever c(8);
  const double P = 1e-3;
  c.model.add_element<NodalLoad>("P", c.model.attach(c.nodes.back()), constant_load(0, P, 0));
  const std::vector<fem::NodeState> end = c.solve();
  expect_equilibrium_beyond_every_end(c, end, Vec3(0, P, 0), 1e-7);
  const double h = c.L / static_cast<double>(c.elements.size());
  for (std::size_t e = 0; e < c.elements.size(); ++e) {
    const std::array<EndSection, 2> ends = c.elements[e]->end_sections(end);
    for (std::size_t k = 0; k < 2; ++k) {
      const double s = h * static_cast<double>(e + k);
      EXPECT_NEAR(ends[k].force[1], P, 1e-6 * P) << "Q2, element " << e << " end " << k;
      EXPECT_NEAR(ends[k].moment[2], P * (c.L - s), 1e-6 * P * c.L) << "M3, element " << e << " end " << k;
      EXPECT_NEAR(ends[k].moment[0], 0.0, 1e-9 * P * c.L);
      EXPECT_NEAR(ends[k].moment[1], 0.0, 1e-9 * P * c.L);
    }
    // The middle's cell values: the mean of the end moments, the same shear.
    const CellCapture cell = cell_values_of(*c.elements[e], end);
    EXPECT_NEAR(cell.values.at("bending_moment_z"), 0.5 * (ends[0].moment[2] + ends[1].moment[2]), 1e-6 * P * c.L);
    EXPECT_NEAR(cell.values.at("shear_force_y"), ends[0].force[1], 1e-6 * P);
  }
  EXPECT_NEAR(c.elements.front()->end_sections(end)[0].moment[2], P * c.L, 1e-6 * P * c.L);
  EXPECT_LT(c.elements.back()->end_sections(end)[1].moment.norm(), 1e-9 * P * c.L);
}

TEST(EndSections, CantileverTipForceLargeDeflection) {
  // P L²/EI = 1.3: the tip drops by about a third of L and turns by some 35 degrees, and the
  // equilibrium of the part beyond each section still holds exactly; the moment at each end is P
  // times its lever arm in the deflected shape, no longer P (L − s).
  Cantilever c(16);
  const double P = 1.3 * c.section.EIz / (c.L * c.L);
  c.model.add_element<NodalLoad>("P", c.model.attach(c.nodes.back()), constant_load(0, P, 0));
  const std::vector<fem::NodeState> end = c.solve_in_increments(5);
  const Vec3 tip = end[c.nodes.back().index].position;
  ASSERT_GT(tip.y(), 0.3 * c.L);
  expect_equilibrium_beyond_every_end(c, end, Vec3(0, P, 0), 1e-9);
  const EndSection root = c.elements.front()->end_sections(end)[0];
  EXPECT_NEAR(root.moment[2], P * tip.x(), 1e-9 * P * c.L);  // the lever arm: the tip's x
  EXPECT_LT(c.elements.back()->end_sections(end)[1].moment.norm(), 1e-9 * P * c.L);
}

TEST(EndSections, EccentricTipCarriesTheOffsetsMoment) {
  // The tip node sits e off the beam's axis: the last element's end point is the beam's end, and
  // the load on the node acts there with the moment (x_node − p) × P (a torque for P along z).
  const double e = 0.3, P = 1e-4;
  Cantilever c(6, e);
  c.model.add_element<NodalLoad>("P", c.model.attach(c.nodes.back()), constant_load(0, 0, P));
  const std::vector<fem::NodeState> end = c.solve();
  expect_equilibrium_beyond_every_end(c, end, Vec3(0, 0, P), 1e-7);
  const EndSection tip = c.elements.back()->end_sections(end)[1];
  EXPECT_NEAR(tip.point.y(), 0.0, 1e-9);  // the beam's end, not the node
  EXPECT_NEAR(tip.moment[0], e * P, 1e-6 * e * P);  // T = e P: the node is at +y, P along +z
}

TEST(EndSections, TipMomentIsConstantAlongTheCantilever) {
  // A moment M about z at the tip: M3 = M at every end, no force; with M L/EI = 1 rad the beam
  // bends into an arc and the section axes turn with it, about z.
  for (const double rotation : {1e-3, 1.0}) {
    Cantilever c(8);
    const double M = rotation * c.section.EIz / c.L;
    c.model.add_element<NodalLoad>("M", c.model.attach(c.nodes.back()), constant_load(0, 0, M), LoadKind::Moment);
    const std::vector<fem::NodeState> end = c.solve_in_increments(rotation < 0.1 ? 1 : 4);
    for (const Beam* beam : c.elements) {
      const std::array<EndSection, 2> ends = beam->end_sections(end);
      for (const EndSection& s : ends) {
        EXPECT_NEAR(s.moment[2], M, 1e-9 * M) << beam->name();
        EXPECT_LT(s.moment.head<2>().norm(), 1e-9 * M);
        EXPECT_LT(s.force.norm() * c.L, 1e-7 * M);
      }
      const CellCapture cell = cell_values_of(*beam, end);
      EXPECT_NEAR(cell.values.at("bending_moment_z"), M, 1e-9 * M) << beam->name();
    }
  }
}

TEST(EndSections, TensionAndTorsionEqualTheCellValues) {
  // An axial force and a torque at the tip: N and T constant, equal at both ends of every element
  // to its cell's axial_force and torque, and N the applied force.
  Cantilever c(4);
  const double F = 2.0, T = 1e-3;
  c.model.add_element<NodalLoad>("F", c.model.attach(c.nodes.back()), constant_load(F, 0, 0));
  c.model.add_element<NodalLoad>("T", c.model.attach(c.nodes.back()), constant_load(T, 0, 0), LoadKind::Moment);
  const std::vector<fem::NodeState> end = c.solve();
  for (const Beam* beam : c.elements) {
    const CellCapture cell = cell_values_of(*beam, end);
    for (const EndSection& s : beam->end_sections(end)) {
      EXPECT_NEAR(s.force[0], F, 1e-10 * F);
      EXPECT_NEAR(s.force[0], cell.values.at("axial_force"), 1e-10 * F);
      EXPECT_NEAR(s.moment[0], T, 1e-10 * T);
      EXPECT_NEAR(s.moment[0], cell.values.at("torque"), 1e-10 * T);
      EXPECT_LT(s.force.tail<2>().norm(), 1e-10 * F);
    }
  }
}

TEST(EndSections, TrussInTensionCarriesNAtBothEnds) {
  fem::Model m;
  const fem::NodeId a = m.add_node("a", Vec3(0, 0, 0)), b = m.add_node("b", Vec3(1, 2, 2));
  const Truss& bar = m.add_element<Truss>("bar", m.attach(a), m.attach(b), TrussSection{900.0}, 3.0);
  std::vector<fem::NodeState> states = m.initial_state;
  states[1].position = Vec3(1, 2, 2) * 1.01;  // 1 % longer, turned nowhere
  const double N = 9.0;                       // EA · 0.01
  const std::array<EndSection, 2> ends = bar.end_sections(states);
  for (const EndSection& s : ends) {
    EXPECT_NEAR(s.force[0], N, 1e-12 * N);
    EXPECT_NEAR(s.force[0], bar.axial_force(states), 1e-12 * N);
    EXPECT_LT(s.force.tail<2>().norm() + s.moment.norm(), 1e-12 * N);
    EXPECT_LT((s.axes.col(0) - Vec3(1, 2, 2) / 3.0).norm(), 1e-15);
    EXPECT_LT((s.axes.transpose() * s.axes - fem::Mat3::Identity()).norm(), 1e-15);
  }
  EXPECT_LT((ends[0].point - states[0].position).norm() + (ends[1].point - states[1].position).norm(), 1e-15);
}

/// The named values an element writes through Element::end_values.
struct EndCapture final : fem::EndValueSink {
  std::map<std::pair<std::size_t, std::string>, Vec3> values;
  void set(std::size_t end, std::string_view field, const Vec3& value) override {
    values[{end, std::string(field)}] = value;
  }
};

TEST(EndSections, EndValuesWritesSectionForceAndMomentPerCellNode) {
  Cantilever c(2);
  c.model.add_element<NodalLoad>("P", c.model.attach(c.nodes.back()), constant_load(0.1, 0.2, -0.3));
  const std::vector<fem::NodeState> end = c.solve();
  for (const auto& element : c.model.elements) {
    EndCapture capture;
    element->end_values(end, capture);
    const auto* beam = dynamic_cast<const Beam*>(element.get());
    if (!beam) {
      EXPECT_TRUE(capture.values.empty()) << element->name();  // the nodal load has no cell
      continue;
    }
    ASSERT_EQ(capture.values.size(), 4U);
    ASSERT_EQ(beam->cell_nodes().size(), 2U);
    const std::array<EndSection, 2> ends = beam->end_sections(end);
    for (std::size_t k = 0; k < 2; ++k) {
      EXPECT_EQ(capture.values.at({k, "section_force"}), ends[k].force);
      EXPECT_EQ(capture.values.at({k, "section_moment"}), ends[k].moment);
    }
  }
}

}  // namespace
}  // namespace catena::elements
