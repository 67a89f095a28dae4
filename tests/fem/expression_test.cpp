#include "fem/expression.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace catena::fem {
namespace {

TEST(Expression, EvaluatesParametersAndTime) {
  const ParameterTable p{{"w", 2.0}, {"A", 3.0}};
  const Expression e("A*sin(w*t)", p);
  EXPECT_NEAR(e(0.25), 3.0 * std::sin(0.5), 1e-15);
  EXPECT_FALSE(e.is_constant());
  EXPECT_TRUE(Expression("A*w", p).is_constant());
}

TEST(Expression, PiecewiseLawFitsOneLine) {
  // The spin-up law of docs/benchmarks.md: quadratic-cosine ramp, then constant speed.
  const ParameterTable p{{"ws", 6.0}, {"Ts", 15.0}, {"pi", 3.14159265358979323846}};
  const Expression psi("t < Ts ? ws/Ts*(t^2/2 + (Ts/(2*pi))^2*(cos(2*pi*t/Ts) - 1)) : ws*(t - Ts/2)", p);
  EXPECT_NEAR(psi(30.0), 6.0 * 22.5, 1e-12);
  EXPECT_NEAR(psi(15.0), 6.0 * 7.5, 1e-12);
}

TEST(Expression, ErrorsQuoteTheText) {
  const ParameterTable p;
  try {
    static_cast<void>(evaluate("2*unknown_name", p));
    FAIL() << "no error";
  } catch (const ExpressionError& e) {
    EXPECT_NE(std::string(e.what()).find("2*unknown_name"), std::string::npos) << e.what();
  }
  EXPECT_THROW(static_cast<void>(evaluate("t", p)), ExpressionError);  // no time in constants
}

TEST(Expression, AListOfValuesIsAnErrorNotItsLastValue) {
  // muparser reads "1,5" as two results and returns the last: a decimal comma gave 5 (issue 39).
  const ParameterTable p{{"a", 2.0}};
  try {
    static_cast<void>(evaluate("1,5", p));
    FAIL() << "no error";
  } catch (const ValueListError& e) {
    EXPECT_NE(std::string(e.what()).find("'1,5', 2 values separated by commas"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("write 1.5"), std::string::npos) << e.what();
  }
  EXPECT_THROW(static_cast<void>(Expression("a*t,1,2", p)), ValueListError);  // loads and laws
  EXPECT_THROW(static_cast<void>(Expression("min(1,2),3", p, std::vector<std::string>{"x"})), ValueListError);
  // Commas between a function's arguments are one value.
  EXPECT_EQ(evaluate("min(1,5)", p), 1.0);
  EXPECT_EQ(evaluate("max(a,3)+sum(1,2,3)", p), 9.0);
}

TEST(Expression, NonFiniteValueIsAnError) {
  const Expression e("1/t", {});
  EXPECT_THROW(static_cast<void>(e(0.0)), ExpressionError);
}

TEST(Expression, PlainNumbersHaveTheValueMuparserReads) {
  // A plain number is read without muparser (fem/expression.cpp): its value must be the one
  // muparser reads, here from the same number in parentheses, bit for bit (and the sign of -0).
  std::vector<std::string> texts{"0", "-0", "7", "-12", "0.1", "0.3", "2.5e-3", "1E5", "-1e+300", "123456789012345678901234",
                                 "4.9406564584124654e-324", "1.7976931348623157e308", "007", "3.141592653589793238462643"};
  std::mt19937_64 rng(20);
  std::uniform_real_distribution<double> exponent(-300.0, 300.0);
  char buffer[64];
  for (int k = 0; k < 2000; ++k) {
    const double v = std::pow(10.0, exponent(rng)) * (k % 2 == 0 ? 1.0 : -1.0);
    std::snprintf(buffer, sizeof buffer, k % 3 == 0 ? "%.17g" : k % 3 == 1 ? "%.6g" : "%.3f", v);
    texts.emplace_back(buffer);
  }
  int plain = 0;
  for (const std::string& text : texts) {
    const Expression number(text, {});
    const double read = number(0.0);
    const double by_muparser = Expression("(" + text + ")", {})(0.0);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(read), std::bit_cast<std::uint64_t>(by_muparser)) << text;
    EXPECT_TRUE(number.is_constant());
    EXPECT_EQ(number.text(), text);
    plain += text.find_first_not_of("-0123456789.eE+") == std::string::npos;
  }
  EXPECT_GT(plain, 1500);
  // Out of range: muparser's infinity, an error when evaluated, as before.
  EXPECT_THROW(static_cast<void>(Expression("1e999", {})(0.0)), ExpressionError);
  EXPECT_THROW(static_cast<void>(Expression("-1e999", {}, false)(0.0)), ExpressionError);
}

}  // namespace
}  // namespace catena::fem
