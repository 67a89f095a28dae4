#pragma once
/// A differentiable law: an expression in muparser's syntax (the one loads and drives are written
/// in: `^`, sin, exp, abs, sign, min, max, `a < b ? x : y`, `&&`, `||`, parameters and `t`) of a
/// set of named variables, giving its value and its exact partial derivative by each variable:
/// the force of a joint component or a nodal load that depends on the motion
/// (`-k1*e - k3*e^3`, `max(-Tmax, min(Tmax, -Kp*(e - th) - Kd*e_rate))`).
///
/// How. The text is parsed once, when the model is read, into a GiNaC expression with the variables
/// and parameters as real symbols (Catena's own recursive descent in muparser's grammar and
/// precedences: GiNaC's parser has no comparisons, logic or `?:`, and reads `-2^2` and `2^-1^2`
/// otherwise than muparser), differentiated by GiNaC once per variable, and the value and the
/// derivatives printed back as one muparser expression `v, d1, ..., dn` that a single `Eval`
/// evaluates. What GiNaC lacks is defined as GiNaC functions with explicit derivatives:
///   abs(u)      derivative sign(u) u'
///   min, max    derivative pick(a − b, a', b'): a' where a wins, b' where b wins
///   a < b ? x : y   derivative (a < b ? x' : y'), evaluated lazily (a NaN in the branch not taken
///               does not matter)
///   comparisons, &&, ||, sign   derivative 0 (piecewise constant)
/// Evaluation. muparser's byte code: value and two derivatives in 0.08 µs for the saturated PD law
/// `max(-T, min(T, -Kp*(e - th) - Kd*e_rate))`, 0.09 µs for `-Kp*e - Kd*e^3*sin(e_rate) + cos(e)`;
/// GiNaC's own evaluation of the latter (`subs` of the symbols, `evalf` of the value and each
/// derivative, which build new expression trees every time) took 14.5 µs (-O2, this machine,
/// 10⁶ and 2·10⁴ evaluations). A joint's law is evaluated at four quadrature points per Newton pass,
/// so the muparser path is the one used; GiNaC works only while the model is read.
///
/// Kinks. abs, sign, min, max and the comparisons are evaluated by functions that note when their
/// switch is hit exactly (their argument zero, a tie). An evaluation that hit one is repeated with
/// every switch taken the other way; when the value or a derivative then differs, the law is not
/// differentiable there and `evaluate` throws `LawError` (a `DomainError`: Newton cuts the step, and
/// a kink that persists ends the run with a SolverFailure naming the law's place in the model
/// file). A switch whose side does not matter (abs(v)*v at v = 0, max(a, b) of equal slopes) passes.
/// A value or derivative that is not finite is a `LawError` too.
#include "fem/element.hpp"
#include "fem/expression.hpp"

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace catena::fem {

/// The inputs one law of the motion may read at most (an element's law variables live in a fixed
/// array while it stamps: elements/joint.cpp, elements/nodal_load.cpp).
inline constexpr std::size_t max_law_inputs = 16;

/// A law evaluated where it has no derivative (a kink exactly hit), or not finite there. `what()`
/// begins with the law's place in the model file ("model.yaml:12:14: joints[0].laws.rz.force: ").
class LawError : public DomainError {
 public:
  using DomainError::DomainError;
};

class Law {
 public:
  /// Parses `text`: names resolve to `variables` (in this order, the order `evaluate` takes their
  /// values in), then to `parameters`, and `t`. The first `differentiated` variables get
  /// derivatives (the others, sampled inputs, are held over a step and need none). `place` prefixes
  /// every message ("model.yaml:12:14: joints[0].laws.rz.force"). Throws ExpressionError for a text
  /// muparser refuses or a construct without a derivative rule (rint).
  Law(const std::string& text, const ParameterTable& parameters, std::vector<std::string> variables,
      std::size_t differentiated, std::string place);
  Law(Law&&) noexcept;
  Law& operator=(Law&&) noexcept;
  ~Law();

  /// The value at time t and `values` of the variables; the derivative by each of the first
  /// `differentiated` variables into `gradient` (that many entries). Throws LawError (header).
  double evaluate(double t, std::span<const double> values, std::span<double> gradient) const;
  [[nodiscard]] const std::string& text() const;
  [[nodiscard]] const std::string& place() const;
  [[nodiscard]] const std::vector<std::string>& variables() const;
  /// Whether the text uses variable i (its derivative is then not identically zero, or it is an input).
  [[nodiscard]] bool uses(std::size_t variable) const;
  /// The derivative by variable i as the muparser text evaluated (tests, messages).
  [[nodiscard]] std::string derivative_text(std::size_t variable) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace catena::fem
