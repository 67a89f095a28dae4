#include "fem/expression.hpp"

#include <gtest/gtest.h>

#include <cmath>

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

TEST(Expression, NonFiniteValueIsAnError) {
  const Expression e("1/t", {});
  EXPECT_THROW(static_cast<void>(e(0.0)), ExpressionError);
}

}  // namespace
}  // namespace catena::fem
