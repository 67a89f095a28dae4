#include "fem/law.hpp"

#include <ginac/ginac.h>
#include <muParser.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <cstdio>
#include <map>
#include <optional>

namespace catena::fem {

namespace {

// ---- What GiNaC lacks: functions with explicit derivatives (fem/law.hpp) ----

/// The serial numbers of Catena's GiNaC functions, registered once on first use.
struct LawFunctions {
  unsigned abs, sign, pick, max, min, choice, compare, both, either;
};

const LawFunctions& law_functions();

GiNaC::ex zero_derivative(const GiNaC::ex&, const GiNaC::symbol&) { return 0; }
GiNaC::ex zero_derivative2(const GiNaC::ex&, const GiNaC::ex&, const GiNaC::symbol&) { return 0; }
GiNaC::ex zero_derivative3(const GiNaC::ex&, const GiNaC::ex&, const GiNaC::ex&, const GiNaC::symbol&) { return 0; }

GiNaC::ex pick(const GiNaC::ex& d, const GiNaC::ex& a, const GiNaC::ex& b) {
  return GiNaC::function(law_functions().pick, d, a, b);
}
GiNaC::ex abs_derivative(const GiNaC::ex& u, const GiNaC::symbol& s) {
  return GiNaC::function(law_functions().sign, u) * u.diff(s);
}
GiNaC::ex pick_derivative(const GiNaC::ex& d, const GiNaC::ex& a, const GiNaC::ex& b, const GiNaC::symbol& s) {
  return pick(d, a.diff(s), b.diff(s));
}
GiNaC::ex max_derivative(const GiNaC::ex& a, const GiNaC::ex& b, const GiNaC::symbol& s) {
  return pick(a - b, a.diff(s), b.diff(s));
}
GiNaC::ex min_derivative(const GiNaC::ex& a, const GiNaC::ex& b, const GiNaC::symbol& s) {
  return pick(b - a, a.diff(s), b.diff(s));
}
GiNaC::ex choice_derivative(const GiNaC::ex& c, const GiNaC::ex& a, const GiNaC::ex& b, const GiNaC::symbol& s) {
  return GiNaC::function(law_functions().choice, c, a.diff(s), b.diff(s));
}

const LawFunctions& law_functions() {
  using GiNaC::function;
  using GiNaC::function_options;
  static const LawFunctions f{
      function::register_new(function_options("law_abs", 1).expl_derivative_func(abs_derivative)),
      function::register_new(function_options("law_sign", 1).expl_derivative_func(zero_derivative)),
      function::register_new(function_options("law_pick", 3).expl_derivative_func(pick_derivative)),
      function::register_new(function_options("law_max", 2).expl_derivative_func(max_derivative)),
      function::register_new(function_options("law_min", 2).expl_derivative_func(min_derivative)),
      function::register_new(function_options("law_choice", 3).expl_derivative_func(choice_derivative)),
      // law_compare(a, b, operator): the operator as an index into `comparisons`.
      function::register_new(function_options("law_compare", 3).expl_derivative_func(zero_derivative3)),
      function::register_new(function_options("law_and", 2).expl_derivative_func(zero_derivative2)),
      function::register_new(function_options("law_or", 2).expl_derivative_func(zero_derivative2)),
  };
  return f;
}

/// muparser's comparison operators, and the muparser function that evaluates each.
constexpr std::array<std::string_view, 6> comparisons{"<", "<=", ">", ">=", "==", "!="};
constexpr std::array<const char*, 6> comparison_functions{"law_lt", "law_le", "law_gt", "law_ge", "law_eq", "law_ne"};

// ---- Parsing muparser's grammar into GiNaC ----

/// Recursive descent in muparser's precedences, lowest first: `?:` (right), `||`, `&&`,
/// comparisons, `+ -`, `* /` with unary signs, `^` (right; its exponent may carry a sign:
/// 2^-1^2 = 2^(-(1^2))). `symbol` resolves a name (nothing: unknown), `number` a number.
class Parser {
 public:
  using Resolver = std::function<std::optional<GiNaC::ex>(const std::string&)>;
  using Number = std::function<GiNaC::ex(double)>;
  Parser(std::string_view text, Resolver symbol, Number number)
      : text_(text), symbol_(std::move(symbol)), number_(std::move(number)) {}

  GiNaC::ex parse() {
    GiNaC::ex e = ternary();
    skip();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(text_.substr(pos_, 1)) + "'");
    return e;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw ExpressionError("cannot differentiate '" + std::string(text_) + "': " + why);
  }
  void skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(std::string_view op) {
    skip();
    if (text_.substr(pos_, op.size()) != op) return false;
    pos_ += op.size();
    return true;
  }
  void expect(std::string_view op) {
    if (!accept(op)) fail("expected '" + std::string(op) + "'");
  }

  /// Counts the nesting of the recursive descent: a text of a few thousand parentheses or signs
  /// would otherwise run the stack out.
  struct Nesting {
    explicit Nesting(Parser& p) : parser(p) {
      if (++parser.depth_ > max_depth) parser.fail("nested more than " + std::to_string(max_depth) + " levels deep");
    }
    ~Nesting() { --parser.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    Parser& parser;
  };
  static constexpr int max_depth = 200;

  GiNaC::ex ternary() {
    const Nesting nesting(*this);
    GiNaC::ex c = logical_or();
    if (!accept("?")) return c;
    GiNaC::ex a = ternary();
    expect(":");
    GiNaC::ex b = ternary();
    return GiNaC::function(law_functions().choice, c, a, b);
  }
  GiNaC::ex logical_or() {
    GiNaC::ex e = logical_and();
    while (accept("||")) e = GiNaC::function(law_functions().either, e, logical_and());
    return e;
  }
  GiNaC::ex logical_and() {
    GiNaC::ex e = comparison();
    while (accept("&&")) e = GiNaC::function(law_functions().both, e, comparison());
    return e;
  }
  GiNaC::ex comparison() {
    GiNaC::ex e = sum();
    while (true) {
      std::optional<std::size_t> op;
      // Two-character operators first ("<=" before "<").
      for (const std::size_t k : {1U, 3U, 4U, 5U, 0U, 2U})
        if (accept(comparisons[k])) {
          op = k;
          break;
        }
      if (!op) return e;
      e = GiNaC::function(law_functions().compare, e, sum(), static_cast<int>(*op));
    }
  }
  GiNaC::ex sum() {
    GiNaC::ex e = product();
    while (true) {
      if (accept("+")) e = e + product();
      else if (accept("-")) e = e - product();
      else return e;
    }
  }
  GiNaC::ex product() {
    GiNaC::ex e = signed_factor();
    while (true) {
      if (accept("*")) e = e * signed_factor();
      else if (accept("/")) e = e / signed_factor();
      else return e;
    }
  }
  GiNaC::ex signed_factor() {
    const Nesting nesting(*this);
    if (accept("-")) return -signed_factor();
    if (accept("+")) return signed_factor();
    return power();
  }
  GiNaC::ex power() {
    GiNaC::ex base = primary();
    if (!accept("^")) return base;
    return GiNaC::pow(base, signed_power());
  }
  GiNaC::ex signed_power() {
    const Nesting nesting(*this);
    if (accept("-")) return -signed_power();
    if (accept("+")) return signed_power();
    return power();
  }

  GiNaC::ex primary() {
    skip();
    if (accept("(")) {
      GiNaC::ex e = ternary();
      expect(")");
      return e;
    }
    if (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.'))
      return number();
    const std::string name = identifier();
    if (accept("(")) return call(name);
    if (name == "_pi") return GiNaC::Pi;
    if (name == "_e") return GiNaC::exp(GiNaC::ex(1));
    const std::optional<GiNaC::ex> s = symbol_(name);
    if (!s) fail("unknown name '" + name + "'");
    return *s;
  }

  GiNaC::ex number() {
    const char* begin = text_.data() + pos_;
    double v = 0.0;
    const auto [end, error] = std::from_chars(begin, text_.data() + text_.size(), v);
    if (error != std::errc()) fail("expected a number at '" + std::string(text_.substr(pos_)) + "'");
    const std::string_view literal(begin, static_cast<std::size_t>(end - begin));
    pos_ += literal.size();
    return number_(v);
  }

  std::string identifier() {
    skip();
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    if (pos_ == start) fail(pos_ < text_.size() ? "unexpected '" + std::string(text_.substr(pos_, 1)) + "'"
                                                : std::string("unexpected end"));
    return std::string(text_.substr(start, pos_ - start));
  }

  GiNaC::ex call(const std::string& name) {
    std::vector<GiNaC::ex> args{ternary()};
    while (accept(",")) args.push_back(ternary());
    expect(")");
    const LawFunctions& f = law_functions();
    const auto one = [&]() -> const GiNaC::ex& {
      if (args.size() != 1) fail(name + " takes one argument");
      return args[0];
    };
    if (name == "sin") return GiNaC::sin(one());
    if (name == "cos") return GiNaC::cos(one());
    if (name == "tan") return GiNaC::tan(one());
    if (name == "asin") return GiNaC::asin(one());
    if (name == "acos") return GiNaC::acos(one());
    if (name == "atan") return GiNaC::atan(one());
    if (name == "sinh") return GiNaC::sinh(one());
    if (name == "cosh") return GiNaC::cosh(one());
    if (name == "tanh") return GiNaC::tanh(one());
    if (name == "asinh") return GiNaC::asinh(one());
    if (name == "acosh") return GiNaC::acosh(one());
    if (name == "atanh") return GiNaC::atanh(one());
    if (name == "exp") return GiNaC::exp(one());
    if (name == "sqrt") return GiNaC::sqrt(one());
    if (name == "ln" || name == "log") return GiNaC::log(one());  // muparser's log is the natural one
    if (name == "log2") return GiNaC::log(one()) / GiNaC::log(GiNaC::ex(2));
    if (name == "log10") return GiNaC::log(one()) / GiNaC::log(GiNaC::ex(10));
    if (name == "abs") return GiNaC::function(f.abs, one());
    if (name == "sign") return GiNaC::function(f.sign, one());
    if (name == "min" || name == "max") {
      GiNaC::ex e = args[0];
      for (std::size_t k = 1; k < args.size(); ++k) e = GiNaC::function(name == "min" ? f.min : f.max, e, args[k]);
      return e;
    }
    if (name == "sum" || name == "avg") {
      GiNaC::ex e = 0;
      for (const GiNaC::ex& a : args) e += a;
      return name == "sum" ? e : e / static_cast<int>(args.size());
    }
    fail("the function " + name + " has no derivative rule (a law may use sin, cos, tan, asin, acos, atan, sinh, "
         "cosh, tanh, asinh, acosh, atanh, exp, sqrt, ln, log, log2, log10, abs, sign, min, max, sum, avg)");
  }

  std::string_view text_;
  Resolver symbol_;
  Number number_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

// ---- Printing GiNaC back to muparser ----

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return v < 0.0 ? "(" + std::string(buf) + ")" : std::string(buf);
}

/// A product with the powers of the same base combined: GiNaC differentiates x^n, n a symbol (a
/// parameter, or a number: numbers are symbols in a law), as x^n n x^-1, which is 0·inf = NaN at
/// x = 0 where n x^(n-1) is 0.
GiNaC::ex with_powers_combined(const GiNaC::ex& product) {
  std::vector<std::pair<GiNaC::ex, GiNaC::ex>> factors;  // base, exponent
  for (std::size_t k = 0; k < product.nops(); ++k) {
    const GiNaC::ex& f = product.op(k);
    const bool power = GiNaC::is_a<GiNaC::power>(f);
    const GiNaC::ex base = power ? f.op(0) : f, exponent = power ? f.op(1) : GiNaC::ex(1);
    const auto same = std::find_if(factors.begin(), factors.end(), [&](const auto& b) { return b.first.is_equal(base); });
    if (same == factors.end()) factors.emplace_back(base, exponent);
    else same->second += exponent;
  }
  GiNaC::exvector out;
  for (const auto& [base, exponent] : factors)
    out.push_back(exponent.is_equal(GiNaC::ex(1)) ? base : GiNaC::ex(GiNaC::power(base, exponent).hold()));
  return GiNaC::mul(out).hold();
}

std::string muparser_text(const GiNaC::ex& e) {
  const auto join = [](const GiNaC::ex& x, const char* op) {
    std::string s = "(";
    for (std::size_t k = 0; k < x.nops(); ++k) s += (k ? op : "") + muparser_text(x.op(k));
    return s + ")";
  };
  if (GiNaC::is_a<GiNaC::numeric>(e)) return number_text(GiNaC::ex_to<GiNaC::numeric>(e).to_double());
  if (GiNaC::is_a<GiNaC::symbol>(e)) return GiNaC::ex_to<GiNaC::symbol>(e).get_name();
  if (GiNaC::is_a<GiNaC::constant>(e) && e.is_equal(GiNaC::Pi)) return "_pi";
  if (GiNaC::is_a<GiNaC::add>(e)) return join(e, "+");
  if (GiNaC::is_a<GiNaC::mul>(e)) return join(with_powers_combined(e), "*");
  if (GiNaC::is_a<GiNaC::power>(e)) return "(" + muparser_text(e.op(0)) + ")^(" + muparser_text(e.op(1)) + ")";
  if (!GiNaC::is_a<GiNaC::function>(e)) throw ExpressionError("a law's derivative has a term muparser cannot evaluate");
  const auto& f = GiNaC::ex_to<GiNaC::function>(e);
  const LawFunctions& law = law_functions();
  const unsigned serial = f.get_serial();
  std::vector<std::string> a;
  for (std::size_t k = 0; k < e.nops(); ++k) a.push_back(muparser_text(e.op(k)));
  const auto call = [&](const std::string& name, std::size_t n) {
    std::string s = name + "(";
    for (std::size_t k = 0; k < n; ++k) s += (k ? "," : "") + a[k];
    return s + ")";
  };
  if (serial == law.abs) return call("abs", 1);
  if (serial == law.sign) return call("law_sign", 1);
  if (serial == law.pick) return call("law_pick", 3);
  if (serial == law.max) return call("max", 2);
  if (serial == law.min) return call("min", 2);
  if (serial == law.choice) return "(" + a[0] + "?" + a[1] + ":" + a[2] + ")";
  if (serial == law.both) return "(" + a[0] + "&&" + a[1] + ")";
  if (serial == law.either) return "(" + a[0] + "||" + a[1] + ")";
  if (serial == law.compare) {
    const auto op = static_cast<std::size_t>(GiNaC::ex_to<GiNaC::numeric>(e.op(2)).to_int());
    return call(comparison_functions[op], 2);
  }
  if (f.get_name() == "log") return call("ln", 1);
  return call(f.get_name(), e.nops());
}

// ---- Switches evaluated by muparser, noting when they are hit exactly ----

/// `side` +1: every switch hit exactly is taken as muparser takes it (1 < 1 is false; a tie of
/// max picks its first argument, sign(0) = +1); −1: the other way. `hit`: one was.
struct Switches {
  double side = 1.0;
  bool hit = false;
};

double at_switch(void* data) {
  auto& s = *static_cast<Switches*>(data);
  s.hit = true;
  return s.side;
}
double law_sign(void* data, double u) { return u > 0.0 ? 1.0 : u < 0.0 ? -1.0 : u == 0.0 ? at_switch(data) : u; }
double law_pick(void* data, double d, double a, double b) {
  if (d > 0.0) return a;
  if (d < 0.0) return b;
  if (d == 0.0) return at_switch(data) > 0.0 ? a : b;
  return d;  // NaN
}
/// A comparison: `strict` false for <=, >=, ==; `answer` what it gives away from a tie.
double compare(void* data, double a, double b, bool answer, bool tie_true) {
  if (a != b) return answer ? 1.0 : 0.0;
  return (at_switch(data) > 0.0) == tie_true ? 1.0 : 0.0;
}
double law_lt(void* d, double a, double b) { return compare(d, a, b, a < b, false); }
double law_le(void* d, double a, double b) { return compare(d, a, b, a <= b, true); }
double law_gt(void* d, double a, double b) { return compare(d, a, b, a > b, false); }
double law_ge(void* d, double a, double b) { return compare(d, a, b, a >= b, true); }
double law_eq(void* d, double a, double b) { return compare(d, a, b, a == b, true); }
double law_ne(void* d, double a, double b) { return compare(d, a, b, a != b, false); }

/// The names of a law's numbers as muparser constants (Law::Impl::differentiate).
constexpr std::string_view number_prefix = "_law_number_";

/// Equal as a derivative of the same law evaluated twice: to rounding of the larger.
bool same(double a, double b) { return a == b || std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

}  // namespace

struct Law::Impl {
  std::string text, place;
  std::vector<std::string> variables;
  std::size_t differentiated = 0;
  std::vector<bool> used;
  std::vector<std::string> derivatives;  ///< muparser text of each differentiated variable's derivative
  /// Per differentiated variable, its result's index in the parser's results (0: the value), or -1
  /// when its derivative is identically zero.
  std::vector<int> slot;
  mu::Parser parser;
  mutable double t = 0.0;
  mutable std::vector<double> values;
  mutable Switches switches;
  mutable std::vector<double> first;  ///< the results of the first evaluation

  /// Parses `text` into GiNaC and differentiates it; fills `used`, `derivatives`, `slot` and the
  /// parameters it names, and returns the muparser text of the value and the derivatives.
  std::string differentiate(const ParameterTable& parameters, std::map<std::string, double, std::less<>>& constants);
  /// Sets the muparser parser up to evaluate `all`.
  void define(const std::map<std::string, double, std::less<>>& constants, const std::string& all);

  [[nodiscard]] std::string state(double at) const {
    std::string s;
    for (std::size_t k = 0; k < variables.size(); ++k)
      if (used[k]) s += variables[k] + " = " + number_text(values[k]) + ", ";
    return s + "t = " + number_text(at);
  }
};

Law::Law(const std::string& text, const ParameterTable& parameters, std::vector<std::string> variables,
         std::size_t differentiated, std::string place)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.text = text;
  m.place = std::move(place);
  m.variables = std::move(variables);
  m.differentiated = std::min(differentiated, m.variables.size());
  m.values.assign(m.variables.size(), 0.0);
  // muparser's own reading first: its messages for a malformed text, a list of values, an unknown name.
  static_cast<void>(Expression(text, parameters, m.variables));
  std::map<std::string, double, std::less<>> constants;
  std::string all;
  // GiNaC throws its own exceptions for what has no value (a division by zero, an overflow).
  try {
    all = m.differentiate(parameters, constants);
  } catch (const ExpressionError&) {
    throw;
  } catch (const std::exception& e) {
    throw ExpressionError("cannot differentiate '" + text + "': " + e.what());
  }
  try {
    m.define(constants, all);
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError("cannot evaluate the derivatives of '" + text + "': " + e.GetMsg());
  }
}

std::string Law::Impl::differentiate(const ParameterTable& parameters, std::map<std::string, double, std::less<>>& constants) {
  // The variables, then `t`, then the parameters the text names (only those: a model may have
  // thousands), and its numbers, as real symbols: numbers too, so that GiNaC never computes with
  // them (its floats silently lose a tower of powers such as 2^2^2^2^2^2, which muparser reads as
  // inf) and muparser evaluates the very doubles it would read.
  std::vector<GiNaC::realsymbol> symbols;
  for (const std::string& v : variables) symbols.emplace_back(v);
  const GiNaC::realsymbol time("t");
  std::map<std::string, GiNaC::realsymbol, std::less<>> named;
  const auto resolve = [&](const std::string& name) -> std::optional<GiNaC::ex> {
    if (name.starts_with(number_prefix)) throw ExpressionError("names beginning with " + std::string(number_prefix) +
                                                               " are reserved in laws; found '" + name + "'");
    const auto v = std::find(variables.begin(), variables.end(), name);
    if (v != variables.end()) return symbols[static_cast<std::size_t>(v - variables.begin())];
    if (name == "t") return time;
    const auto p = parameters.find(name);
    if (p == parameters.end()) return std::nullopt;
    constants.emplace(name, p->second);
    return named.try_emplace(name, name).first->second;
  };
  const auto number = [&](double v) -> GiNaC::ex {
    const std::string name = std::string(number_prefix) + std::to_string(constants.size());
    constants.emplace(name, v);
    return named.try_emplace(name, name).first->second;
  };
  const GiNaC::ex law = Parser(text, resolve, number).parse();
  // Value, then the derivatives that are not identically zero: one muparser expression.
  std::string all = muparser_text(law);
  int results = 1;
  for (std::size_t k = 0; k < variables.size(); ++k) {
    used.push_back(law.has(symbols[k]));
    if (k >= differentiated) continue;
    const GiNaC::ex d = law.diff(symbols[k]);
    derivatives.push_back(muparser_text(d));
    slot.push_back(d.is_zero() ? -1 : results++);
    if (!d.is_zero()) all += "," + derivatives.back();
  }
  return all;
}

void Law::Impl::define(const std::map<std::string, double, std::less<>>& constants, const std::string& all) {
  for (const auto& [name, value] : constants) parser.DefineConst(name, value);
  parser.DefineVar("t", &t);
  for (std::size_t k = 0; k < variables.size(); ++k) parser.DefineVar(variables[k], &values[k]);
  parser.DefineFunUserData("law_sign", law_sign, &switches, false);
  parser.DefineFunUserData("law_pick", law_pick, &switches, false);
  parser.DefineFunUserData("law_lt", law_lt, &switches, false);
  parser.DefineFunUserData("law_le", law_le, &switches, false);
  parser.DefineFunUserData("law_gt", law_gt, &switches, false);
  parser.DefineFunUserData("law_ge", law_ge, &switches, false);
  parser.DefineFunUserData("law_eq", law_eq, &switches, false);
  parser.DefineFunUserData("law_ne", law_ne, &switches, false);
  parser.SetExpr(all);
}

Law::Law(Law&&) noexcept = default;
Law& Law::operator=(Law&&) noexcept = default;
Law::~Law() = default;

double Law::evaluate(double t, std::span<const double> values, std::span<double> gradient) const {
  Impl& m = *impl_;
  m.t = t;
  std::copy(values.begin(), values.end(), m.values.begin());
  m.switches = Switches{};
  int n = 0;
  const auto eval = [&] {
    try {
      return m.parser.Eval(n);
    } catch (const mu::Parser::exception_type& e) {
      throw LawError(m.place + ": cannot evaluate the law '" + m.text + "' at " + m.state(t) + ": " + e.GetMsg());
    }
  };
  const double* r = eval();
  m.first.assign(r, r + n);
  const auto name_of = [&](int result) {
    if (result == 0) return std::string("its value");
    const auto k = static_cast<std::size_t>(std::find(m.slot.begin(), m.slot.end(), result) - m.slot.begin());
    return "its derivative by " + m.variables[k];
  };
  if (m.switches.hit) {
    m.switches.side = -1.0;
    r = eval();
    for (int k = 0; k < n; ++k)
      if (!same(m.first[static_cast<std::size_t>(k)], r[k]))
        throw LawError(m.place + ": the law '" + m.text + "' has no derivative at " + m.state(t) +
                       ": an abs, sign, min, max, comparison or ?: is exactly at its switch there, and " + name_of(k) +
                       " is " + number_text(m.first[static_cast<std::size_t>(k)]) + " on one side and " +
                       number_text(r[k]) + " on the other; smooth the law at its switch (sqrt(u^2 + d^2) for "
                       "abs(u)) or move the switch off this state");
  }
  for (int k = 0; k < n; ++k)
    if (!std::isfinite(m.first[static_cast<std::size_t>(k)]))
      throw LawError(m.place + ": the law '" + m.text + "' at " + m.state(t) + ": " + name_of(k) + " is " +
                     (std::isnan(m.first[static_cast<std::size_t>(k)]) ? "not a number (NaN)" : "infinite") +
                     "; a law must have a finite value and finite derivatives wherever the motion takes it");
  for (std::size_t k = 0; k < gradient.size(); ++k)
    gradient[k] = k < m.slot.size() && m.slot[k] >= 0 ? m.first[static_cast<std::size_t>(m.slot[k])] : 0.0;
  return m.first[0];
}

const std::string& Law::text() const { return impl_->text; }
const std::string& Law::place() const { return impl_->place; }
const std::vector<std::string>& Law::variables() const { return impl_->variables; }
bool Law::uses(std::size_t variable) const { return impl_->used[variable]; }
std::string Law::derivative_text(std::size_t variable) const { return impl_->derivatives.at(variable); }

}  // namespace catena::fem
