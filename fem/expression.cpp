#include "fem/expression.hpp"

#include <muParser.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <system_error>

namespace catena::fem {

namespace {

/// Defines as constants the parameters `text` names, but not those in `except`. Only those: defining
/// the whole table made every expression cost as much as the table, and reading n parameters that
/// use one another quadratic (20 000 took 45 s).
void define_named(mu::Parser& parser, const std::string& text, const ParameterTable& parameters,
                  const std::vector<std::string>& except = {}) {
  // The words of the text looked up in the table: linear in the text, not in the table.
  const auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i < text.size();) {
    if (!is_word(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && is_word(text[end])) ++end;
    // Every suffix that starts a name ("2pi" holds pi; "1e5x" holds e5x and x).
    for (std::size_t start = i; start < end; ++start) {
      if (std::isdigit(static_cast<unsigned char>(text[start]))) continue;
      const std::string word = text.substr(start, end - start);
      if (const auto it = parameters.find(word);
          it != parameters.end() && std::find(except.begin(), except.end(), word) == except.end())
        parser.DefineConst(it->first, it->second);
      if (start == i) break;  // a word that starts with a letter is one name
    }
    i = end;
  }
}

/// The value of `text` when it is a plain decimal number ("-12", "0.5", "2.1e11"), which muparser
/// would read as the same double (both round correctly); nothing for anything else, or a value out
/// of range (muparser's error or infinity is then muparser's to give).
std::optional<double> plain_number(const std::string& text) {
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < text.size() && is_digit(text[i])) ++i;
    return i > from;
  };
  if (i < text.size() && text[i] == '-') ++i;
  if (!digits()) return std::nullopt;
  if (i < text.size() && text[i] == '.' && (++i, !digits())) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (!digits()) return std::nullopt;
  }
  if (i != text.size()) return std::nullopt;
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

/// `text` with its comma read as a decimal point ("0,5*t" gives 0.5*t), when it has one comma
/// outside parentheses and that comma stands between two digits.
std::optional<std::string> with_decimal_point(std::string text) {
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  std::optional<std::size_t> comma;
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    if (text[i] != ',' || depth != 0) continue;
    if (comma) return std::nullopt;
    comma = i;
  }
  if (!comma || *comma == 0 || *comma + 1 == text.size() || !is_digit(text[*comma - 1]) || !is_digit(text[*comma + 1]))
    return std::nullopt;
  text[*comma] = '.';
  return text;
}

/// muparser reads a comma outside a function's parentheses as a separator of results and returns
/// the last one: "1,5" gave 5. A comma belongs only between a function's arguments (min, max, ...).
void require_one_value(const mu::Parser& parser, const std::string& text) {
  const int results = parser.GetNumResults();
  if (results <= 1) return;
  const std::optional<std::string> decimal = with_decimal_point(text);
  throw ValueListError("expected one value; found '" + text + "', " + std::to_string(results) +
                       " values separated by commas (a comma is not a decimal point" +
                       (decimal ? ": write " + *decimal : std::string()) +
                       "; commas separate only the arguments of min, max, sum and avg)");
}

}  // namespace

struct Expression::Impl {
  /// Empty for a plain number: a muparser parser sets up its tables of functions and operators (some
  /// 6 000 instructions and kilobytes) for each component of each load (10^5 in a 10 MB model).
  std::optional<mu::Parser> parser;
  double number = 0.0;  ///< the value, without a parser
  std::string text;
  mutable double t = 0.0;  // muparser reads variables through a pointer
  mutable std::vector<double> variables;
  bool uses_time = false;
};

Expression::Expression(const std::string& text, const ParameterTable& parameters, bool allow_time)
    : impl_(std::make_unique<Impl>()) {
  impl_->text = text;
  if (const std::optional<double> number = plain_number(text)) {
    impl_->number = *number;
    return;
  }
  impl_->parser.emplace();
  try {
    define_named(*impl_->parser, text, parameters);
    if (allow_time) impl_->parser->DefineVar("t", &impl_->t);
    impl_->parser->SetExpr(text);
    const mu::varmap_type used = impl_->parser->GetUsedVar();
    impl_->uses_time = used.count("t") > 0;
    static_cast<void>(impl_->parser->Eval());
    require_one_value(*impl_->parser, text);
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError("cannot evaluate '" + text + "': " + e.GetMsg());
  }
}

Expression::Expression(const std::string& text, const ParameterTable& parameters,
                       const std::vector<std::string>& variables)
    : impl_(std::make_unique<Impl>()) {
  impl_->text = text;
  impl_->variables.assign(variables.size(), 0.0);
  impl_->parser.emplace();
  try {
    define_named(*impl_->parser, text, parameters, variables);
    impl_->parser->DefineVar("t", &impl_->t);
    for (std::size_t i = 0; i < variables.size(); ++i) impl_->parser->DefineVar(variables[i], &impl_->variables[i]);
    impl_->parser->SetExpr(text);
    impl_->uses_time = impl_->parser->GetUsedVar().count("t") > 0;
    static_cast<void>(impl_->parser->Eval());
    require_one_value(*impl_->parser, text);
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError("cannot evaluate '" + text + "': " + e.GetMsg());
  }
}

double Expression::operator()(double t, std::span<const double> variables) const {
  std::copy(variables.begin(), variables.end(), impl_->variables.begin());
  return (*this)(t);
}

Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;
Expression::~Expression() = default;

double Expression::operator()(double t) const {
  if (!impl_->parser) return impl_->number;
  impl_->t = t;
  double v = 0.0;
  try {
    v = impl_->parser->Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError("cannot evaluate '" + impl_->text + "' at t = " + std::to_string(t) +
                          ": " + e.GetMsg());
  }
  if (!std::isfinite(v))
    throw ExpressionError("'" + impl_->text + "', which is " +
                          (std::isnan(v) ? std::string("not a number (NaN: 0/0, inf - inf, ...)")
                                         : std::string(v > 0 ? "+inf" : "-inf")) +
                          (impl_->uses_time ? " at t = " + std::to_string(t) : std::string()));
  return v;
}

const std::string& Expression::text() const { return impl_->text; }
bool Expression::is_constant() const { return !impl_->uses_time; }

double evaluate(const std::string& text, const ParameterTable& parameters) {
  const Expression e(text, parameters, /*allow_time=*/false);
  return e(0.0);
}

}  // namespace catena::fem
