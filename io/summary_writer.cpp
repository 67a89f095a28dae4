#include "io/summary_writer.hpp"

#include "io/output_directory.hpp"
#include "fem/sensor.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <iostream>
#include <set>
#include <stdexcept>
#include <string_view>

namespace catena::io {

namespace {

/// The length of the well-formed UTF-8 sequence starting text[i] (RFC 3629: no overlong forms,
/// no surrogates, at most U+10FFFF), 0 when it is not one.
std::size_t utf8_sequence(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return 1;
  std::size_t n = 0;
  unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) n = 2;
  else if (b0 == 0xE0) n = 3, low = 0xA0;
  else if (b0 >= 0xE1 && b0 <= 0xEC) n = 3;
  else if (b0 == 0xED) n = 3, high = 0x9F;
  else if (b0 >= 0xEE && b0 <= 0xEF) n = 3;
  else if (b0 == 0xF0) n = 4, low = 0x90;
  else if (b0 >= 0xF1 && b0 <= 0xF3) n = 4;
  else if (b0 == 0xF4) n = 4, high = 0x8F;
  else return 0;
  if (i + n > text.size() || byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

}  // namespace

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
          out += escaped;
        } else if (const std::size_t n = utf8_sequence(text, i); n > 0) {
          out.append(text.substr(i, n));
          i += n;
          continue;
        } else {
          // Not UTF-8 (a model name in Latin-1): JSON must be, so the byte becomes U+FFFD.
          out += "\\ufffd";
        }
    }
    ++i;
  }
  return out + '"';
}

std::string json_number(double value) { return std::isfinite(value) ? format_double(value) : "null"; }

namespace {

/// Collects `"key": value` lines, refusing a key twice.
class JsonObject {
 public:
  void add(std::string_view key, const std::string& value_text) {
    if (!keys_.emplace(key).second)
      throw std::invalid_argument("summary.json: key '" + std::string(key) + "' given twice");
    text_ += text_.empty() ? "{\n" : ",\n";
    text_ += "  " + json_string(key) + ": " + value_text;
  }
  [[nodiscard]] std::string finish() const { return (text_.empty() ? "{" : text_ + '\n') + "}\n"; }

 private:
  std::set<std::string, std::less<>> keys_;
  std::string text_;
};

std::string counter_text(long value) { return std::to_string(value); }
std::string counter_text(double value) { return json_number(value); }
std::string counter_text(const std::string& value) { return json_string(value); }

bool is_set(long value) { return value != 0; }
bool is_set(double value) { return value != 0.0; }
bool is_set(const std::string& value) { return !value.empty(); }

/// The counters reported in one of `reports`, in the list's order; those reported when set only
/// when they are.
void add_counters(JsonObject& o, const solvers::RunCounters& counters, std::initializer_list<solvers::Report> reports) {
  solvers::for_each_counter_field([&](const auto& field) {
    if (std::find(reports.begin(), reports.end(), field.report) == reports.end()) return;
    const auto& value = counters.*field.member;
    if (field.report == solvers::Report::Always || is_set(value)) o.add(field.name, counter_text(value));
  });
}

}  // namespace

std::vector<std::pair<std::string, std::string>> sensor_units(const fem::Model& model) {
  std::vector<std::pair<std::string, std::string>> units;
  for (const fem::Sensor& sensor : model.sensors) units.emplace_back(sensor.name, fem::sensor_unit(sensor));
  return units;
}

void describe_model(const fem::Model& model, SummaryData& data) {
  static constexpr std::array<std::string_view, 4> analysis_names{"dynamic", "static", "eigen", "buckling"};
  data.sensor_units = sensor_units(model);
  data.analysis = analysis_names.at(static_cast<std::size_t>(model.analysis.type));
  if (model.analysis.type == fem::AnalysisType::Dynamic) {
    data.dt = model.analysis.dt;
    data.reactions = model.analysis.instantaneous_reactions ? "instantaneous" : "step_average";
  }
  data.sensor_sources.clear();
  for (const fem::Sensor& sensor : model.sensors)
    if (sensor.element && sensor.parts.empty())
      data.sensor_sources.push_back({sensor.name, sensor.element->name(), sensor.field});
}

std::string summary_json(const SummaryData& d) {
  JsonObject o;
  o.add("model_name", json_string(d.model_name));
  o.add("status", json_string(d.status));
  o.add("message", json_string(d.message));
  o.add("n_unknowns", std::to_string(d.n_unknowns));
  o.add("n_nonzeros", std::to_string(d.n_nonzeros));
  o.add("mpi_ranks", std::to_string(d.mpi_ranks));
  o.add("threads", std::to_string(d.threads));
  std::string rows = "[";
  for (std::size_t i = 0; i < d.rows_per_rank.size(); ++i)
    rows += (i == 0 ? "" : ", ") + std::to_string(d.rows_per_rank[i]);
  o.add("rows_per_rank", rows + ']');
  add_counters(o, d.counters, {solvers::Report::Always, solvers::Report::WhenSet});
  if (!d.checkpoint.empty()) o.add("checkpoint", json_string(d.checkpoint));
  if (!d.restarted_from.empty()) o.add("restarted_from", json_string(d.restarted_from));
  add_counters(o, d.counters, {solvers::Report::TrailingWhenSet});
  for (const auto& [name, value] : d.extra) o.add(name, json_number(value));
  // The objects: `{"name": value, ...}` of each item's JSON value, written only when not empty.
  const auto add_object = [&o](const char* key, const auto& items, const auto& name, const auto& value) {
    if (items.empty()) return;
    std::string text = "{";
    for (const auto& item : items) text += (text.size() == 1 ? "" : ", ") + json_string(name(item)) + ": " + value(item);
    o.add(key, text + '}');
  };
  add_object(
      "sensor_units", d.sensor_units, [](const auto& u) { return u.first; },
      [](const auto& u) { return json_string(u.second); });
  if (!d.analysis.empty()) o.add("analysis", json_string(d.analysis));
  if (d.dt > 0.0) o.add("dt", json_number(d.dt));
  if (!d.reactions.empty()) o.add("reactions", json_string(d.reactions));
  add_object(
      "sensor_sources", d.sensor_sources, [](const SummaryData::SensorSource& s) { return s.sensor; },
      [](const SummaryData::SensorSource& s) {
        return "{\"element\": " + json_string(s.element) + ", \"field\": " + json_string(s.field) + '}';
      });
  add_object(
      "sensitivity_parameters", d.sensitivity_parameters, [](const SummaryData::SensitivityParameter& p) { return p.name; },
      [](const SummaryData::SensitivityParameter& p) {
        return "{\"value\": " + json_number(p.value) + ", \"step\": " + json_number(p.step) + '}';
      });
  if (d.objective) o.add("objective", json_number(*d.objective));
  add_object(
      "objective_gradient", d.objective_gradient, [](const auto& g) { return g.first; },
      [](const auto& g) { return json_number(g.second); });
  return o.finish();
}

void write_summary_json(const std::filesystem::path& file, const SummaryData& data) {
  if (file.has_parent_path()) create_output_directory(file.parent_path());
  const std::string text = summary_json(data);
  try {
    replace_file_atomically(file, text);
  } catch (const OutputError&) {
    // No room for `summary.json.tmp` (a full disk): the room the running summary kept takes the
    // final one, followed by spaces, which JSON allows after a value.
    if (!overwrite_within_size(file, text, ' ')) throw;
  }
}

void write_running_summary(const std::filesystem::path& file, SummaryData data, std::string_view process) {
  data.status = "running";
  data.message = "in progress (" + std::string(process) +
                 "); when that process is gone it was killed before it could write its summary";
  std::string text = summary_json(data);
  text.append(summary_reserve_bytes, ' ');
  text += '\n';
  if (file.has_parent_path()) create_output_directory(file.parent_path());
  replace_file_atomically(file, text);
}

bool write_summary_json_or_report(const std::filesystem::path& file, const SummaryData& data) {
  try {
    write_summary_json(file, data);
    return true;
  } catch (const std::exception& e) {
    std::cerr << "catena: " << e.what() << '\n';
    return false;
  }
}

}  // namespace catena::io
