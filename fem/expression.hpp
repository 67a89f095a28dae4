#pragma once
/// Expressions of parameters and time, parsed once with muparser: model parameters, loads and
/// drive laws (`"F0 * sin(2 * _pi * t / T)"`, piecewise with `t < Ts ? ... : ...`).
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace catena::fem {

using ParameterTable = std::map<std::string, double, std::less<>>;

/// A malformed or non-finite expression; `what()` quotes the text and muparser's reason.
class ExpressionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An expression that is a list of values ("1,5"): muparser evaluates each and keeps the last, so a
/// decimal comma read silently as a second number. `what()` is the whole message: what was found and
/// the decimal point to write.
class ValueListError : public ExpressionError {
 public:
  using ExpressionError::ExpressionError;
};

class Expression {
 public:
  /// Parses `text`; names resolve to `parameters`, and `t` (time, s) when `allow_time`. Throws
  /// ValueListError for a list of values, ExpressionError for anything else muparser refuses.
  Expression(const std::string& text, const ParameterTable& parameters, bool allow_time = true);
  /// With `variables` too (sensor names in an objective), whose values each evaluation gives.
  Expression(const std::string& text, const ParameterTable& parameters, const std::vector<std::string>& variables);
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;
  ~Expression();

  [[nodiscard]] double operator()(double t) const;
  /// At time t with the variables' values, in the constructor's order.
  [[nodiscard]] double operator()(double t, std::span<const double> variables) const;
  [[nodiscard]] const std::string& text() const;
  [[nodiscard]] bool is_constant() const;  ///< does not use `t`

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Evaluates a constant expression of parameters (no `t`); throws ExpressionError.
double evaluate(const std::string& text, const ParameterTable& parameters);

}  // namespace catena::fem
