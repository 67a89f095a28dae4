#include "fem/inputs.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace catena::fem {

void Inputs::check_new(const std::string& name) const {
  if (find(name)) throw std::invalid_argument("input '" + name + "' is defined twice");
}

void Inputs::add(std::string name, double value) {
  check_new(name);
  inputs_.push_back({std::move(name), value, {}});
}

void Inputs::add_table(std::string name, std::vector<Row> rows) {
  check_new(name);
  if (rows.empty()) throw std::invalid_argument("input '" + name + "': a table needs at least one row");
  for (std::size_t k = 1; k < rows.size(); ++k)
    if (!(rows[k].t > rows[k - 1].t))
      throw std::invalid_argument("input '" + name + "': the times of a table must increase");
  inputs_.push_back({std::move(name), rows.front().value, std::move(rows)});
}

std::vector<std::string> Inputs::names() const {
  std::vector<std::string> out;
  for (const Input& i : inputs_) out.push_back(i.name);
  return out;
}

std::optional<std::size_t> Inputs::find(std::string_view name) const {
  const auto it = std::find_if(inputs_.begin(), inputs_.end(), [&](const Input& i) { return i.name == name; });
  if (it == inputs_.end()) return std::nullopt;
  return static_cast<std::size_t>(it - inputs_.begin());
}

std::size_t Inputs::index_of(std::string_view name) const {
  if (const auto k = find(name)) return *k;
  std::string known;
  for (const Input& i : inputs_) known += (known.empty() ? "" : ", ") + i.name;
  throw std::invalid_argument("no input '" + std::string(name) + "' (" +
                              (known.empty() ? std::string("the model defines no inputs") : "inputs: " + known) + ")");
}

void Inputs::set(std::string_view name, double value) {
  Input& input = inputs_[index_of(name)];
  if (!input.rows.empty())
    throw std::invalid_argument("input '" + input.name + "' follows its table in the model file; a program can set "
                                "only inputs given with value:");
  input.value = value;
}

double Inputs::value(std::string_view name) const {
  const std::size_t k = index_of(name);
  if (is_table(k))
    throw std::invalid_argument("input '" + inputs_[k].name + "' follows its table: its value depends on the time "
                                "(value(name, t))");
  return inputs_[k].value;
}

double Inputs::value(std::string_view name, double t) const { return held(index_of(name), t); }

double Inputs::held(std::size_t index, double t) const {
  const Input& input = inputs_[index];
  if (input.rows.empty()) return input.value;
  // The last row with t_i <= t; before the first row, the first. A row within rounding of t counts
  // as reached: ten steps of 0.01 end at t = 0.09999999999999999, and a row at 0.1 holds from there.
  const double reached = t + 1e-12 * std::max(1.0, std::abs(t));
  const auto after = std::upper_bound(input.rows.begin(), input.rows.end(), reached,
                                      [](double time, const Row& row) { return time < row.t; });
  return after == input.rows.begin() ? input.rows.front().value : std::prev(after)->value;
}

}  // namespace catena::fem
