#include "io/yaml_cursor.hpp"

#include "io/input_error.hpp"
#include "io/name_hint.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <system_error>

namespace catena::io {

namespace {

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t");
  return s.substr(first, last - first + 1);
}

/// YAML's spellings of infinity and not-a-number, in any case (.inf, -.Inf, .NaN, ...).
constexpr std::array<std::string_view, 4> yaml_non_finite{".inf", "+.inf", "-.inf", ".nan"};
bool is_yaml_non_finite(std::string_view text) {
  return std::any_of(yaml_non_finite.begin(), yaml_non_finite.end(),
                     [&](std::string_view spelling) { return equal_ignoring_case(text, spelling); });
}

enum class Literal : std::uint8_t { Number, OutOfRange, NotANumber };

/// Parses a plain decimal number (the whole text); `value` is set for `Literal::Number`.
Literal parse_literal(std::string_view text, double& value) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return Literal::NotANumber;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (end != text.data() + text.size()) return Literal::NotANumber;
  if (ec == std::errc::result_out_of_range) return Literal::OutOfRange;
  if (ec != std::errc()) return Literal::NotANumber;
  return Literal::Number;
}

bool is_vowel_start(std::string_view s) {
  return !s.empty() && std::string_view("aeiouAEIOU").find(s.front()) != std::string_view::npos;
}

/// "stiffness [N]"
std::string noun_with_unit(const Quantity& q) { return q.unit.empty() ? q.noun : q.noun + " [" + q.unit + "]"; }

/// "a positive stiffness [N]", "an angular velocity [rad/s]"
std::string phrase(const Quantity& q) {
  switch (q.bound) {
    case Bound::Positive: return "a positive " + noun_with_unit(q);
    case Bound::NonNegative: return "a non-negative " + noun_with_unit(q);
    case Bound::Any: break;
  }
  return (is_vowel_start(q.noun) ? "an " : "a ") + noun_with_unit(q);
}

}  // namespace

std::string format_number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}

std::vector<std::string> expression_names(std::string_view text) {
  std::vector<std::string> names;
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  const auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (is_digit(c) || (c == '.' && i + 1 < text.size() && is_digit(text[i + 1]))) {
      while (i < text.size() && (is_digit(text[i]) || text[i] == '.')) ++i;
      if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
        if (j < text.size() && is_digit(text[j])) {
          i = j;
          while (i < text.size() && is_digit(text[i])) ++i;
        }
      }
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::size_t start = i;
      while (i < text.size() && is_word(text[i])) ++i;
      std::size_t j = i;
      while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
      if (j < text.size() && text[j] == '(') continue;  // a function
      names.emplace_back(text.substr(start, i - start));
    } else {
      ++i;
    }
  }
  return names;
}

namespace {

/// Fails with the reason an expression does not parse: a list of values (a decimal comma), an
/// unknown name (with a suggestion) when there is one, else muparser's message.
/// `subject` quotes where the expression stands ("'-ll'", or "the name 'bar{j}'"); empty: the text.
[[noreturn]] void fail_expression(const Cursor& c, const std::string& text, const fem::ParameterTable& parameters,
                                  bool allow_time, const fem::ExpressionError& error, std::string subject = {}) {
  if (dynamic_cast<const fem::ValueListError*>(&error))
    c.fail(std::string(error.what()) + (subject.empty() ? "" : " in " + subject));
  if (subject.empty()) subject = "'" + text + "'";
  std::vector<std::string> known;
  for (const auto& entry : parameters) known.push_back(entry.first);
  for (const std::string& name : expression_names(text)) {
    if (name == "_pi" || name == "_e" || parameters.contains(name) || (allow_time && name == "t")) continue;
    if (name == "t")
      c.fail("'t' (time) is only allowed in loads; found '" + text + "'");
    std::string hint = did_you_mean(name, known);
    if (hint.empty()) {
      std::vector<std::string> user;
      for (const std::string& k : known)
        if (k != "pi") user.push_back(k);
      hint = defined_names_note(user, {.none = "no parameters are defined",
                                       .after_list = allow_time ? ", and t" : "",
                                       .list_at_most = 12});
    }
    c.fail("unknown parameter '" + name + "' in " + subject + hint);
  }
  // ExpressionError reads "cannot evaluate 'TEXT': REASON": quote muparser's reason alone.
  const std::string prefix = "cannot evaluate '" + text + "': ";
  const std::string message = error.what();
  const std::string reason = message.starts_with(prefix) ? message.substr(prefix.size()) : message;
  c.fail("expected a number or an expression of parameters" + std::string(allow_time ? " and t" : "") +
         "; found '" + text + "' (muparser: " + reason + ")");
}

std::string scalar_text(const Cursor& c, const Quantity& q, std::string_view expected_kind) {
  if (!c.is_scalar()) c.fail_expected(phrase(q) + " (" + std::string(expected_kind) + ")");
  std::string text(trim(c.node().Scalar()));
  if (text.empty()) c.fail_expected(phrase(q) + " (" + std::string(expected_kind) + ")");
  if (is_yaml_non_finite(text)) c.fail("expected a finite " + noun_with_unit(q) + "; found " + text);
  return text;
}

}  // namespace

// ---- Source ----

void Source::note_override(const YAML::Node& value, std::string assignment, bool created) {
  overrides_.push_back({value, std::move(assignment), created});
}

Source::Place Source::place(const YAML::Node& node, const YAML::Mark& mark) const {
  if (node.IsDefined()) {
    for (const Override& o : overrides_) {
      if (!o.node.is(node)) continue;
      std::string note = " (value given by --set " + o.assignment + ")";
      if (o.created || mark.is_null()) return {"--set", 0, 0, std::move(note)};
      return {file_, mark.line + 1, mark.column + 1, std::move(note)};
    }
  }
  // Only an empty document has no position: report its start.
  const int line = mark.is_null() ? 1 : mark.line + 1;
  const int column = mark.is_null() ? 1 : mark.column + 1;
  return {file_, line, column, {}};
}

InputError Source::error(const YAML::Node& node, const YAML::Mark& mark, const std::string& key,
                         std::string message) const {
  Place p = place(node, mark);
  return {std::string(p.file), p.line, p.column, key, std::move(message) + p.note};
}

void Source::fail(const YAML::Node& node, const YAML::Mark& mark, const std::string& key, std::string message) const {
  throw error(node, mark, key, std::move(message));
}

// ---- Cursor ----

Cursor::Cursor(const Source& source, YAML::Node root) : source_(&source), node_(std::move(root)) {
  key_mark_ = node_.Mark();
}

Cursor::Cursor(const Source& source, YAML::Node node, std::string path, YAML::Mark key_mark)
    : source_(&source), node_(std::move(node)), path_(std::move(path)), key_mark_(key_mark) {}

Cursor& Cursor::operator=(const Cursor& other) {
  source_ = other.source_;
  node_.reset(other.node_);
  path_ = other.path_;
  key_mark_ = other.key_mark_;
  cache_ = other.cache_;
  return *this;
}

std::string Cursor::found() const {
  switch (node_.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence:
      return node_.size() == 0 ? "an empty sequence" : "a sequence of " + std::to_string(node_.size());
    case YAML::NodeType::Scalar: {
      const std::string& text = node_.Scalar();
      double v = 0.0;
      if (parse_literal(trim(text), v) == Literal::Number) return std::string(trim(text));
      return "'" + text + "'";
    }
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: break;
  }
  return "nothing";
}

void Cursor::fail_at(const YAML::Mark& mark, const std::string& key, std::string message) const {
  source_->fail(node_, mark, key, std::move(message));
}

YAML::Mark Cursor::mark() const {
  // An empty value has no useful position of its own (yaml-cpp places it after the key): use
  // the key's.
  const YAML::Mark value_mark = node_.Mark();
  const bool use_key = (node_.IsNull() || value_mark.is_null()) && !key_mark_.is_null();
  return use_key ? key_mark_ : value_mark;
}

InputError Cursor::error(std::string message) const { return source_->error(node_, mark(), path_, std::move(message)); }

std::string Cursor::where() const {
  // What error("") would say, without building it: every element's origin is recorded (claim_element_name).
  const Source::Place p = source_->place(node_, mark());
  return p.line > 0 ? std::string(p.file) + ":" + std::to_string(p.line) : std::string(p.file) + p.note;
}

void Cursor::fail(std::string message) const { throw error(std::move(message)); }

void Cursor::fail_expected(std::string_view expected) const {
  fail("expected " + std::string(expected) + "; found " + found());
}

void Cursor::expect_map(std::string_view what) const {
  if (!is_map()) fail_expected(std::string(what) + " (a mapping of keys)");
}

void Cursor::expect_sequence(std::string_view what) const {
  if (!is_sequence()) fail_expected(std::string(what) + " (a sequence)");
}

const std::vector<Cursor::Entry>& Cursor::map_entries() const {
  if (!cache_.entries) {
    // Each iterator dereferenced once: every `it->` builds a proxy holding more copies of the
    // key's and the value's handles.
    auto entries = std::make_unique<std::vector<Entry>>();
    entries->reserve(node_.size());
    for (const auto& entry : node_) entries->push_back({entry.first, entry.second});
    cache_.entries = std::move(entries);
  }
  return *cache_.entries;
}

// Built for every value read: one allocation each, not one per piece.
std::string Cursor::key_path(std::string_view key) const {
  if (path_.empty()) return std::string(key);
  std::string path;
  path.reserve(path_.size() + 1 + key.size());
  return path.append(path_).append(".").append(key);
}

void Cursor::check_keys(std::span<const std::string_view> known) const {
  std::vector<std::pair<std::string_view, int>> seen;  // key (the document holds it), 1-based line
  for (const Entry& entry : map_entries()) {
    const YAML::Node& key = entry.key;
    if (!key.IsScalar()) {
      Cursor(*source_, key, path_, key.Mark()).fail_expected("a key name");
    }
    const std::string& name = key.Scalar();
    if (!known.empty() && std::find(known.begin(), known.end(), name) == known.end()) {
      std::string hint = did_you_mean(name, known);
      if (hint.empty()) hint = "; expected one of: " + join(known);
      source_->fail(key, key.Mark(), key_path(name), "unknown key '" + name + "'" + hint);
    }
    const auto previous = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == name; });
    if (previous != seen.end())
      source_->fail(key, key.Mark(), key_path(name),
                    "duplicate key '" + name + "' (first given on line " + std::to_string(previous->second) + ")");
    seen.emplace_back(name, key.Mark().line + 1);
  }
}

std::vector<std::pair<Cursor, Cursor>> Cursor::entries() const {
  std::vector<std::pair<Cursor, Cursor>> out;
  if (!is_map()) return out;
  for (const Entry& entry : map_entries()) {
    const std::string path = key_path(entry.key.IsScalar() ? entry.key.Scalar() : std::string("?"));
    const YAML::Mark mark = entry.key.Mark();
    out.emplace_back(Cursor(*source_, entry.key, path, mark), Cursor(*source_, entry.value, path, mark));
  }
  return out;
}

std::optional<Cursor> Cursor::find(std::string_view key) const {
  if (!is_map()) return std::nullopt;
  for (const Entry& entry : map_entries()) {
    if (entry.key.IsScalar() && entry.key.Scalar() == key)
      return Cursor(*source_, entry.value, key_path(key), entry.key.Mark());
  }
  return std::nullopt;
}

Cursor Cursor::get(std::string_view key, std::string_view what) const {
  if (auto c = find(key)) return *std::move(c);
  const YAML::Mark mark = node_.Mark().is_null() ? key_mark_ : node_.Mark();
  fail_at(mark, key_path(key), "missing required key '" + std::string(key) + "' (" + std::string(what) + ")");
}

Cursor Cursor::operator[](std::size_t i) const {
  YAML::Node item = node_[i];
  const YAML::Mark mark = item.Mark();
  const std::string index = std::to_string(i);
  std::string path;
  path.reserve(path_.size() + index.size() + 2);
  path.append(path_).append("[").append(index).append("]");
  return Cursor(*source_, std::move(item), std::move(path), mark);
}

// ---- typed reads ----

namespace {

/// Units a value may carry after its number ("30 deg", "1500 rpm", "2 mm"): the factor to SI and
/// the SI unit it converts to (the quantity's own unit must be that one).
struct UnitWord {
  std::string_view word;
  double factor;
  std::string_view si;
};
constexpr double pi = 3.14159265358979323846;
constexpr std::array<UnitWord, 22> unit_words{{{"deg", pi / 180, "rad"},
                                               {"rad", 1, "rad"},
                                               {"rpm", 2 * pi / 60, "rad/s"},
                                               {"deg/s", pi / 180, "rad/s"},
                                               {"rad/s", 1, "rad/s"},
                                               {"mm", 1e-3, "m"},
                                               {"cm", 1e-2, "m"},
                                               {"m", 1, "m"},
                                               {"km", 1e3, "m"},
                                               {"mm/s", 1e-3, "m/s"},
                                               {"m/s", 1, "m/s"},
                                               {"km/h", 1 / 3.6, "m/s"},
                                               {"ms", 1e-3, "s"},
                                               {"s", 1, "s"},
                                               {"min", 60, "s"},
                                               {"g", 1e-3, "kg"},
                                               {"kg", 1, "kg"},
                                               {"kN", 1e3, "N"},
                                               {"MPa", 1e6, "Pa"},
                                               {"GPa", 1e9, "Pa"},
                                               {"Hz", 1, "Hz"},
                                               {"kHz", 1e3, "Hz"}}};

/// Splits "30 deg" into "30" and the unit's factor, when the last word is a unit; otherwise the
/// text stays whole and the factor is 1. A unit of another dimension is an error.
std::string strip_unit(const Cursor& c, const std::string& text, const Quantity& q, double& factor) {
  factor = 1.0;
  const std::size_t space = text.find_last_of(" \t");
  if (space == std::string::npos) return text;
  const std::string word = text.substr(space + 1);
  for (const UnitWord& u : unit_words) {
    if (u.word != word) continue;
    if (u.si != q.unit && !q.any_unit)
      c.fail("expected " + phrase(q) + (q.unit.empty() ? " (no unit)" : "") + "; found the unit '" + word +
             "' (of " + std::string(u.si) + ")");
    factor = u.factor;
    return std::string(trim(std::string_view(text).substr(0, space)));
  }
  return text;
}

}  // namespace

double read_number(const Cursor& c, const fem::ParameterTable& parameters, const Quantity& q) {
  double factor = 1.0;
  const std::string text = strip_unit(c, scalar_text(c, q, "a number or an expression of parameters"), q, factor);
  double value = 0.0;
  const Literal literal = parse_literal(text, value);
  if (literal == Literal::OutOfRange) c.fail("expected a finite " + noun_with_unit(q) + "; found " + text);
  if (literal == Literal::NotANumber) {
    std::optional<fem::Expression> e;
    try {
      e.emplace(text, parameters, /*allow_time=*/false);
    } catch (const fem::ExpressionError& error) {
      fail_expression(c, text, parameters, /*allow_time=*/false, error);
    }
    try {
      value = (*e)(0.0);
    } catch (const fem::ExpressionError& error) {
      // Not finite: NaN or an infinity, as the expression says (not reported as "= inf").
      c.fail("expected a finite " + noun_with_unit(q) + "; found " + error.what());
    }
  }
  value *= factor;
  const std::string found = literal == Literal::Number && factor == 1.0 ? text : "'" + text + "' = " + format_number(value);
  if (!std::isfinite(value)) c.fail("expected a finite " + noun_with_unit(q) + "; found " + found);
  const bool ok = q.bound == Bound::Any || (q.bound == Bound::Positive && value > 0.0) ||
                  (q.bound == Bound::NonNegative && value >= 0.0);
  if (!ok) c.fail("expected " + phrase(q) + "; found " + found);
  return value;
}

int read_integer(const Cursor& c, const fem::ParameterTable& parameters, std::string_view noun, int minimum) {
  const double v = read_number(c, parameters, Quantity{std::string(noun), "", Bound::Any});
  if (v != std::floor(v) || v < minimum || v > std::numeric_limits<int>::max()) {
    const std::string text = c.node().Scalar();
    double literal = 0.0;
    const bool plain = parse_literal(trim(text), literal) == Literal::Number;
    c.fail("expected a whole number >= " + std::to_string(minimum) + " (" + std::string(noun) + "); found " +
           (plain ? std::string(trim(text)) : "'" + text + "' = " + format_number(v)));
  }
  return static_cast<int>(v);
}

fem::Vec3 read_vec3(const Cursor& c, const fem::ParameterTable& parameters, const Quantity& q) {
  if (!c.is_sequence() || c.size() != 3)
    c.fail_expected(phrase(Quantity{q.noun, q.unit, Bound::Any}) + " as a list of 3 numbers [x, y, z]");
  const Quantity component{q.noun + " component", q.unit, q.bound};
  fem::Vec3 v;
  for (std::size_t i = 0; i < 3; ++i) v[static_cast<Eigen::Index>(i)] = read_number(c[i], parameters, component);
  return v;
}

fem::Expression read_time_function(const Cursor& c, const fem::ParameterTable& parameters, const Quantity& q) {
  const std::string text = scalar_text(c, q, "a number or an expression of parameters and t");
  std::optional<fem::Expression> e;
  try {
    e.emplace(text, parameters, /*allow_time=*/true);
  } catch (const fem::ExpressionError& error) {
    fail_expression(c, text, parameters, /*allow_time=*/true, error);
  }
  try {
    static_cast<void>((*e)(0.0));
  } catch (const fem::ExpressionError&) {
    c.fail("expected a finite " + noun_with_unit(q) + " at t = 0; found '" + text + "'");
  }
  return *std::move(e);
}

std::string read_string(const Cursor& c, std::string_view what) {
  if (!c.is_scalar() || trim(c.node().Scalar()).empty()) c.fail_expected(what);
  return c.node().Scalar();
}

std::string read_name(const Cursor& c, const fem::ParameterTable& parameters, std::string_view what) {
  const std::string text = read_string(c, what);
  if (text.find_first_of("{}") == std::string::npos) return text;
  const std::string subject = "the name '" + text + "'";
  std::string name;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '}') c.fail("expected " + std::string(what) + " with balanced braces {...}; found a '}' without '{' in '" + text + "'");
    if (text[i] != '{') {
      name += text[i++];
      continue;
    }
    const std::size_t close = text.find('}', i + 1);
    if (close == std::string::npos)
      c.fail("expected " + std::string(what) + " with balanced braces {...}; found a '{' without '}' in '" + text + "'");
    const std::string expression(trim(std::string_view(text).substr(i + 1, close - i - 1)));
    if (expression.empty())
      c.fail("expected a whole-number expression between the braces of " + subject + "; found '{}'");
    double value = 0.0;
    try {
      value = fem::evaluate(expression, parameters);
    } catch (const fem::ExpressionError& error) {
      fail_expression(c, expression, parameters, /*allow_time=*/false, error, subject);
    }
    if (!std::isfinite(value) || value != std::floor(value) || std::abs(value) > 1e15)
      c.fail("expected a whole number for {" + expression + "} in " + subject + "; found " + format_number(value));
    name += std::to_string(static_cast<long long>(value));
    i = close + 1;
  }
  return name;
}

std::size_t read_choice(const Cursor& c, std::span<const std::string_view> choices, std::string_view what) {
  const std::string expected = std::string(what) + ": one of " + join(choices);
  if (!c.is_scalar()) c.fail_expected(expected);
  const std::string& text = c.node().Scalar();
  const auto it = std::find(choices.begin(), choices.end(), text);
  if (it == choices.end())
    c.fail("expected " + expected + "; found '" + text + "'" + did_you_mean(text, choices));
  return static_cast<std::size_t>(it - choices.begin());
}

}  // namespace catena::io
