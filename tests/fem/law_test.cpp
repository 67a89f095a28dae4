// Differentiable laws (fem/law.hpp): value and every derivative against central differences on
// polynomial, trigonometric, saturated and piecewise laws; muparser's precedences; kinks hit
// exactly reported with the law's place, kinks whose side does not matter accepted. Named inputs
// (fem/inputs.hpp): set, zero-order hold of a table, refusals.
#include "fem/inputs.hpp"
#include "fem/law.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace catena::fem {
namespace {

const ParameterTable parameters{{"k1", 3.0}, {"k3", 40.0}, {"Tmax", 2.5}, {"Kp", 30.0}, {"Kd", 4.0}, {"th", 0.4}};
const std::vector<std::string> variables{"e", "e_rate", "x"};

double value_of(const Law& law, double t, const std::vector<double>& x) {
  std::vector<double> g(law.variables().size());
  return law.evaluate(t, x, g);
}

/// Value against muparser's reading of the same text, and each derivative against a central
/// difference of the value (step 1e-6, relative to the variable).
void check_law(const std::string& text, const std::vector<double>& x, double t = 0.3) {
  const Law law(text, parameters, variables, variables.size(), "model.yaml:3:10: law");
  std::vector<double> g(variables.size());
  const double v = law.evaluate(t, x, g);
  const Expression reference(text, parameters, variables);
  EXPECT_NEAR(v, reference(t, x), 1e-13 * std::max(1.0, std::abs(v))) << text;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const double step = 1e-6 * std::max(1.0, std::abs(x[k]));
    std::vector<double> p = x, m = x;
    p[k] += step;
    m[k] -= step;
    const double fd = (value_of(law, t, p) - value_of(law, t, m)) / (2.0 * step);
    EXPECT_NEAR(g[k], fd, 1e-7 * std::max(1.0, std::abs(fd))) << text << ", derivative by " << variables[k];
  }
}

TEST(Law, DerivativesMatchCentralDifferences) {
  const std::vector<double> x{0.7, -1.3, 0.25};
  check_law("-k1*e - k3*e^3", x);
  check_law("-k1*e - k3*e^3 + 2*e*e_rate^2 - x/e + e^-2", x);
  check_law("sin(e)*cos(x*e_rate) + exp(-e^2)*tanh(e_rate) + sqrt(1 + x^2) - atan(e/2) + ln(2 + e) + log10(3+x)", x);
  check_law("max(-Tmax, min(Tmax, -Kp*(e - th) - Kd*e_rate))", x);          // saturated: at -Tmax
  check_law("max(-Tmax, min(Tmax, -Kp*(e - th) - Kd*e_rate))", {0.45, 0.1, 0.0});  // linear part
  check_law("e < th ? -k1*e^2 : -k3*(e - th) - k1*th^2", x);               // the second branch
  check_law("e < th ? -k1*e^2 : -k3*(e - th) - k1*th^2", {0.1, 0.0, 0.0});  // the first
  check_law("-0.3*abs(e_rate)*e_rate + (e > 0)*(e_rate < 0 && x > 0)*k1*t", x);
  check_law("-sign(e_rate)*e_rate^2 + sum(e, x, 1)*avg(e_rate, 2*e)", x);
}

TEST(Law, ReadsMuparsersPrecedences) {
  // Unary minus below ^, ^ right-associative with a signed exponent, ?: right-associative.
  for (const std::string text : {"-e^2", "e^-x^2", "2^e^x", "-e*x + 3 - -e", "e < 1 ? 2 : x > 0 ? 3 : 4",
                                 "e <= 0.7 == 1 || x != 0.5 && e >= x", "_pi*e + _e^x", "e^2*3/x/2"})
    check_law(text, {0.7, -1.3, 0.25});
}

TEST(Law, OnlyTheDifferentiatedVariablesGetDerivatives) {
  const Law law("-Kp*(e - u) - Kd*e_rate", parameters, {"e", "e_rate", "u"}, 2, "here");
  std::vector<double> g(2);
  EXPECT_DOUBLE_EQ(law.evaluate(0.0, std::vector<double>{0.1, 0.2, 0.5}, g), -30.0 * (0.1 - 0.5) - 4.0 * 0.2);
  EXPECT_DOUBLE_EQ(g[0], -30.0);
  EXPECT_DOUBLE_EQ(g[1], -4.0);
  EXPECT_TRUE(law.uses(2));
  EXPECT_FALSE(Law("-Kp*e", parameters, {"e", "e_rate"}, 2, "here").uses(1));
}

/// The message of the LawError `text` throws at `x`, empty when none.
std::string kink_message(const std::string& text, const std::vector<double>& x) {
  const Law law(text, parameters, variables, variables.size(), "model.yaml:7:14: joints[0].laws.rz.force");
  try {
    static_cast<void>(value_of(law, 0.5, x));
  } catch (const LawError& e) {
    return e.what();
  }
  return {};
}

TEST(Law, AKinkHitExactlyIsReportedWithItsPlace) {
  const std::string saturated = "max(-Tmax, min(Tmax, -Kp*(e - th) - Kd*e_rate))";
  // Each text at a state where its switch is hit exactly (-2*(e - 2) = k1 at e = 0.5).
  for (const auto& [text, e] : std::vector<std::pair<std::string, double>>{
           {"-k1*abs(e)", 0.0}, {"-k1*sign(e_rate)", 0.0}, {"max(-k1*e, 2*e)", 0.0}, {"e < 0 ? -k1*e : 2*e", 0.0},
           {"e < 0 ? -1 : 1", 0.0}, {"(e_rate == 0)*k3", 0.0}, {"min(k1, -2*(e - 2))", 0.5}}) {
    const std::string message = kink_message(text, {e, 0.0, 0.0});
    EXPECT_EQ(message.rfind("model.yaml:7:14: joints[0].laws.rz.force: the law '" + text + "' has no derivative at", 0), 0U)
        << text << ": " << message;
  }
  EXPECT_EQ(kink_message(saturated, {0.2, 0.0, 0.0}), "");
}

TEST(Law, AKinkWhoseSideDoesNotMatterPasses) {
  // Drag at rest, a tie of equal slopes, a branch point where both sides agree to first order.
  for (const std::string text : {"-0.3*abs(e_rate)*e_rate", "max(e, e + 0)", "e < 0 ? e^2 : e^3", "sign(e)*e^2"})
    EXPECT_EQ(kink_message(text, {0.0, 0.0, 0.0}), "") << text;
}

TEST(Law, ANonFiniteValueOrDerivativeIsReported) {
  const std::string message = kink_message("sqrt(e)", {0.0, 1.0, 1.0});
  EXPECT_NE(message.find("model.yaml:7:14: joints[0].laws.rz.force: the law 'sqrt(e)' at e = 0"), std::string::npos)
      << message;
  EXPECT_NE(message.find("its derivative by e is infinite"), std::string::npos) << message;
  // The branch not taken is not evaluated: its NaN does not matter.
  EXPECT_EQ(kink_message("e > 0 ? sqrt(e) : 0", {-1.0, 0.0, 0.0}), "");
}

TEST(Law, RefusesWhatHasNoDerivativeRule) {
  EXPECT_THROW(Law("rint(e)", parameters, variables, 3, "here"), ExpressionError);
  EXPECT_THROW(Law("e +* 2", parameters, variables, 3, "here"), ExpressionError);
  EXPECT_THROW(Law("e + unknown", parameters, variables, 3, "here"), ExpressionError);
  EXPECT_THROW(Law("1,5", parameters, variables, 3, "here"), ValueListError);
  EXPECT_THROW(Law(std::string(5000, '(') + "e" + std::string(5000, ')'), parameters, variables, 3, "here"),
               ExpressionError);  // not a stack overflow
  EXPECT_THROW(Law(std::string(5000, '-') + "e", parameters, variables, 3, "here"), ExpressionError);
}

TEST(Law, EvaluatesTheNumbersMuparserReads) {
  // A tower of powers is inf for muparser; GiNaC's own floats would make it 1 (and the law e + 2).
  const Law law("e + 2^2^2^2^2^2^2", parameters, variables, 3, "here");
  EXPECT_THROW(static_cast<void>(value_of(law, 0.0, {0.0, 0.0, 0.0})), LawError);
  check_law("0.1*e + 0.2*e + 1e-3*x^2.5 + 3*e_rate^3", {0.7, -1.3, 0.25});
  EXPECT_THROW(static_cast<void>(value_of(Law("e/0", parameters, variables, 3, "here"), 0.0, {1.0, 0.0, 0.0})),
               LawError);  // infinite, as muparser reads it
  // x^n n x^-1 would be NaN at x = 0: the powers of one base are combined, n x^(n-1).
  std::vector<double> g(3);
  EXPECT_EQ(Law("e^3 + e^k1", parameters, variables, 3, "here").evaluate(0.0, std::vector<double>{0.0, 0.0, 0.0}, g), 0.0);
  EXPECT_EQ(g[0], 0.0);
}

TEST(Inputs, ProgramInputsAreSetAndTablesHeldOverEachStep) {
  Inputs inputs;
  inputs.add("motor", 0.5);
  inputs.add_table("target", {{0.0, 1.0}, {0.1, 2.0}, {0.3, -1.0}});
  EXPECT_EQ(inputs.names(), (std::vector<std::string>{"motor", "target"}));
  EXPECT_DOUBLE_EQ(inputs.value("motor"), 0.5);
  inputs.set("motor", 3.0);
  EXPECT_DOUBLE_EQ(inputs.value("motor"), 3.0);
  EXPECT_DOUBLE_EQ(inputs.held(*inputs.find("motor"), 7.0), 3.0);
  const std::size_t target = *inputs.find("target");
  EXPECT_DOUBLE_EQ(inputs.held(target, -1.0), 1.0);  // before the first row: the first value
  EXPECT_DOUBLE_EQ(inputs.held(target, 0.05), 1.0);
  EXPECT_DOUBLE_EQ(inputs.held(target, 0.1), 2.0);
  EXPECT_DOUBLE_EQ(inputs.held(target, 0.09999999999999999), 2.0);  // ten steps of 0.01
  EXPECT_DOUBLE_EQ(inputs.held(target, 0.29), 2.0);
  EXPECT_DOUBLE_EQ(inputs.value("target", 5.0), -1.0);
}

TEST(Inputs, RefusesUnknownNamesTablesAndBadTables) {
  Inputs inputs;
  inputs.add("motor", 0.0);
  inputs.add_table("target", {{0.0, 1.0}});
  const auto message = [&](auto&& f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message([&] { inputs.set("motr", 1.0); }), "no input 'motr' (inputs: motor, target)");
  EXPECT_NE(message([&] { inputs.set("target", 1.0); }).find("follows its table"), std::string::npos);
  EXPECT_NE(message([&] { static_cast<void>(inputs.value("target")); }).find("value(name, t)"), std::string::npos);
  EXPECT_NE(message([&] { inputs.add("motor", 1.0); }).find("defined twice"), std::string::npos);
  EXPECT_NE(message([&] { inputs.add_table("late", {{0.2, 1.0}, {0.2, 2.0}}); }).find("must increase"),
            std::string::npos);
  EXPECT_NE(message([&] { inputs.add_table("none", {}); }).find("at least one row"), std::string::npos);
}

}  // namespace
}  // namespace catena::fem
