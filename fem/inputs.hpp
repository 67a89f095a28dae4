#pragma once
/// Named inputs of a model (the `inputs` section): values that laws read (joint forces, nodal
/// loads) and that are held over each time element, as a digital controller's output is
/// (zero-order hold). Each is either set by a program between steps (`value:` is its initial
/// value) or follows a table of (t, value) rows: over the step [t_n, t_n + h] it holds the value
/// of the last row with t_i <= t_n, before the first row the first value.
///
/// `fem::Model::inputs` owns them through a shared pointer, so that their address stays fixed
/// when the model moves and the elements that read them keep a pointer; a program sets them
/// between steps (never while a step is solved, when elements read them on several threads).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace catena::fem {

class Inputs {
 public:
  struct Row {
    double t = 0.0;
    double value = 0.0;
  };

  /// An input a program sets; `value` until it does. Throws std::invalid_argument for a name
  /// already used.
  void add(std::string name, double value);
  /// An input that follows `rows` (times strictly increasing, at least one row). Throws
  /// std::invalid_argument for a name already used, no rows or times not increasing.
  void add_table(std::string name, std::vector<Row> rows);

  /// Every input's name, in the order they were added.
  [[nodiscard]] std::vector<std::string> names() const;
  [[nodiscard]] bool empty() const { return inputs_.empty(); }
  /// The index of `name`, what elements keep; nothing when there is no such input.
  [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const;

  /// Sets a program's input. Throws std::invalid_argument naming the inputs there are for an
  /// unknown name, and for an input that follows its table (which a program cannot set).
  void set(std::string_view name, double value);
  /// A program's input's current value. Throws std::invalid_argument for an unknown name and for
  /// an input that follows a table (its value depends on the time: value(name, t)).
  [[nodiscard]] double value(std::string_view name) const;
  /// The value held over a step that starts at t (zero-order hold), for any input. Throws
  /// std::invalid_argument for an unknown name.
  [[nodiscard]] double value(std::string_view name, double t) const;
  /// The value of input `index` held over a step that starts at t: what elements read.
  [[nodiscard]] double held(std::size_t index, double t) const;
  /// Whether input `index` follows a table.
  [[nodiscard]] bool is_table(std::size_t index) const { return !inputs_[index].rows.empty(); }

 private:
  struct Input {
    std::string name;
    double value = 0.0;     ///< a program's input
    std::vector<Row> rows;  ///< a table's rows; empty for a program's input
  };
  [[nodiscard]] std::size_t index_of(std::string_view name) const;
  void check_new(const std::string& name) const;
  std::vector<Input> inputs_;
};

}  // namespace catena::fem
