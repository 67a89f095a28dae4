#pragma once
/// Reading a YAML document with places. A `Cursor` is a node of the document together with its key
/// path (`trusses[0].EA`) and the file it came from; every typed read through it returns a
/// validated value or throws an `InputError` at the offending value (at its key when the value is
/// empty, at the mapping when a required key is missing), in the form
///     model.yaml:12:15: trusses[0].EA: expected a positive stiffness [N]; found -5
/// yaml-cpp stays behind this header: only io/*.cpp include it.
#include "fem/expression.hpp"
#include "fem/types.hpp"
#include "io/input_error.hpp"
#include "io/name_hint.hpp"  // did_you_mean, join: every reader of a cursor uses them

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace catena::io {

/// The names an expression uses as variables or constants, in order (function names and the
/// exponents of numbers such as 1e10 excluded): "F0*sin(w*t)" gives {F0, w, t}.
std::vector<std::string> expression_names(std::string_view text);

/// A number as messages quote it: six significant digits ("%g").
std::string format_number(double v);

/// The model file being read and the values that `--set` replaced or added, so that an error
/// about such a value says where it came from.
class Source {
 public:
  explicit Source(std::string file) : file_(std::move(file)) {}
  [[nodiscard]] const std::string& file() const { return file_; }

  /// Records that `value` was set by the override `assignment` ("analysis.dt=0.5"); `created`
  /// when the key was not in the file (then no file position exists for it).
  void note_override(const YAML::Node& value, std::string assignment, bool created);

  /// Where an error about `node` at the 0-based yaml-cpp `mark` points: the file and the 1-based
  /// line and column (file "--set", line 0, for a value an override added), and what the message
  /// adds for a value an override gave (" (value given by --set analysis.dt=0.5)", else "").
  struct Place {
    std::string_view file;
    int line = 0;
    int column = 0;
    std::string note;
  };
  [[nodiscard]] Place place(const YAML::Node& node, const YAML::Mark& mark) const;

  /// The `InputError` about `node` at `mark`, placed by `place`.
  [[nodiscard]] InputError error(const YAML::Node& node, const YAML::Mark& mark, const std::string& key,
                                 std::string message) const;
  /// Throws `error(...)`.
  [[noreturn]] void fail(const YAML::Node& node, const YAML::Mark& mark, const std::string& key,
                         std::string message) const;

 private:
  struct Override {
    YAML::Node node;
    std::string assignment;
    bool created = false;
  };
  std::string file_;
  std::vector<Override> overrides_;
};

class Cursor {
 public:
  /// The document root.
  Cursor(const Source& source, YAML::Node root);
  Cursor(const Cursor&) = default;
  Cursor(Cursor&&) noexcept = default;
  /// Rebinds the cursor. (YAML::Node's own assignment would overwrite the node it refers to,
  /// changing the document: this uses `reset` instead.)
  Cursor& operator=(const Cursor& other);
  Cursor& operator=(Cursor&& other) { return *this = static_cast<const Cursor&>(other); }
  ~Cursor() = default;

  [[nodiscard]] const YAML::Node& node() const { return node_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] bool is_map() const { return node_.IsMap(); }
  [[nodiscard]] bool is_sequence() const { return node_.IsSequence(); }
  [[nodiscard]] bool is_scalar() const { return node_.IsScalar(); }

  /// Where the value is written, "model.yaml:12" (its key's line for an empty value; the
  /// assignment "--set analysis.dt=0.5" for a value an override added).
  [[nodiscard]] std::string where() const;
  /// What the value is, for messages: "nothing", "a mapping", "a sequence of 2", "-5", "'abc'".
  [[nodiscard]] std::string found() const;
  /// The `InputError` at this value with `message`.
  [[nodiscard]] InputError error(std::string message) const;
  /// Throws `error(message)`.
  [[noreturn]] void fail(std::string message) const;
  /// Throws "expected <expected>; found <found()>".
  [[noreturn]] void fail_expected(std::string_view expected) const;

  /// Mappings. `expect_map` fails unless this is a mapping ("expected <what>; found ...").
  void expect_map(std::string_view what) const;
  /// Rejects keys not in `known` (with a suggestion), non-scalar keys and duplicate keys.
  void check_keys(std::span<const std::string_view> known) const;
  /// The entries of a mapping in document order: each key (a cursor whose errors point at the
  /// key) with its value.
  [[nodiscard]] std::vector<std::pair<Cursor, Cursor>> entries() const;
  /// The value of `key`, if present.
  [[nodiscard]] std::optional<Cursor> find(std::string_view key) const;
  /// The value of a required `key`; missing: "missing required key 'key' (<what>)" at the mapping.
  [[nodiscard]] Cursor get(std::string_view key, std::string_view what) const;

  /// Sequences. `expect_sequence` fails unless this is a sequence.
  void expect_sequence(std::string_view what) const;
  [[nodiscard]] std::size_t size() const { return node_.size(); }
  [[nodiscard]] Cursor operator[](std::size_t i) const;

 private:
  Cursor(const Source& source, YAML::Node node, std::string path, YAML::Mark key_mark);
  /// Where errors about this value point (its key's mark for an empty value).
  [[nodiscard]] YAML::Mark mark() const;
  /// The path of this mapping's `key`: "trusses[0].EA".
  [[nodiscard]] std::string key_path(std::string_view key) const;
  [[noreturn]] void fail_at(const YAML::Mark& mark, const std::string& key, std::string message) const;

  /// A mapping's entries, read from the tree at the first lookup: find runs several times on
  /// every item of a list, and each pass over yaml-cpp's iterator copies two handles (shared
  /// pointers) per entry. A copy of the cursor starts without them, so that a cursor kept for
  /// later messages (a node's, a joint's) does not keep them alive.
  struct Entry {
    YAML::Node key;
    YAML::Node value;
  };
  class EntryCache {
   public:
    EntryCache() = default;
    EntryCache(const EntryCache&) noexcept {}
    EntryCache(EntryCache&&) noexcept = default;
    EntryCache& operator=(const EntryCache&) noexcept {
      entries.reset();
      return *this;
    }
    EntryCache& operator=(EntryCache&&) noexcept = default;
    ~EntryCache() = default;
    std::unique_ptr<const std::vector<Entry>> entries;
  };
  /// The entries of this mapping, in document order.
  [[nodiscard]] const std::vector<Entry>& map_entries() const;

  const Source* source_;
  YAML::Node node_;
  std::string path_;
  YAML::Mark key_mark_;  ///< the key of a mapping value, the item itself in a sequence
  mutable EntryCache cache_;
};

/// Sign constraint of a scalar quantity.
enum class Bound : std::uint8_t { Any, Positive, NonNegative };

/// What a scalar means, for messages: "stiffness" in "N" reads "a positive stiffness [N]".
struct Quantity {
  std::string noun;
  std::string unit;  ///< SI unit, "" for dimensionless
  Bound bound = Bound::Any;
  bool any_unit = false;  ///< accepts a value in any unit, converted to SI (parameters)
};

/// A number, or a muparser expression of `parameters` (no `t`), finite and within its bound.
double read_number(const Cursor& c, const fem::ParameterTable& parameters, const Quantity& q);
/// A whole number >= `minimum` (a number or an expression).
int read_integer(const Cursor& c, const fem::ParameterTable& parameters, std::string_view noun, int minimum);
/// A list of exactly three numbers or expressions [x, y, z] (`q.noun` names the vector).
fem::Vec3 read_vec3(const Cursor& c, const fem::ParameterTable& parameters, const Quantity& q);
/// A function of time `t` [s] and `parameters`, finite at t = 0.
fem::Expression read_time_function(const Cursor& c, const fem::ParameterTable& parameters, const Quantity& q);
/// A non-empty scalar string; `what` names it with its article ("a node name").
std::string read_string(const Cursor& c, std::string_view what);
/// A name (`what`, with its article) whose `{expression}` parts are replaced by their values, whole
/// numbers computed from `parameters`: "bar{k+1}" with k = 2 reads "bar3". Used for every name and
/// every reference to a name, so that `repeat` blocks can generate them.
std::string read_name(const Cursor& c, const fem::ParameterTable& parameters, std::string_view what);
/// One of `choices`, with a suggestion when misspelt; returns its index in `choices`.
std::size_t read_choice(const Cursor& c, std::span<const std::string_view> choices, std::string_view what);

}  // namespace catena::io
