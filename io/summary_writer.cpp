#include "io/summary_writer.hpp"

#include "io/output_directory.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string_view>

namespace catena::io {

namespace {

/// `text` as a JSON string literal (RFC 8259 §7): quote, backslash and control characters
/// escaped; other bytes (UTF-8) as they are.
std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
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
        } else {
          out += c;
        }
    }
  }
  return out + '"';
}

std::string json_number(double value) { return std::isfinite(value) ? format_double(value) : "null"; }

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

}  // namespace

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
  o.add("steps", std::to_string(d.steps));
  o.add("cut_steps", std::to_string(d.cut_steps));
  o.add("newton_iterations", std::to_string(d.newton_iterations));
  o.add("residual_evaluations", std::to_string(d.residual_evaluations));
  o.add("jacobian_evaluations", std::to_string(d.jacobian_evaluations));
  o.add("linear_solves", std::to_string(d.linear_solves));
  if (!d.linear_solver.empty()) o.add("linear_solver", json_string(d.linear_solver));
  o.add("symbolic_factorizations", std::to_string(d.symbolic_factorizations));
  o.add("numeric_factorizations", std::to_string(d.numeric_factorizations));
  o.add("wall_seconds", json_number(d.wall_seconds));
  o.add("assembly_seconds", json_number(d.assembly_seconds));
  o.add("factorization_seconds", json_number(d.factorization_seconds));
  o.add("symbolic_factorization_seconds", json_number(d.symbolic_factorization_seconds));
  o.add("solve_seconds", json_number(d.solve_seconds));
  o.add("t_reached", json_number(d.t_reached));
  o.add("max_energy_drift", json_number(d.max_energy_drift));
  if (!d.checkpoint.empty()) o.add("checkpoint", json_string(d.checkpoint));
  if (!d.restarted_from.empty()) o.add("restarted_from", json_string(d.restarted_from));
  for (const auto& [name, value] : d.extra) o.add(name, json_number(value));
  return o.finish();
}

void write_summary_json(const std::filesystem::path& file, const SummaryData& data) {
  if (file.has_parent_path()) create_output_directory(file.parent_path());
  replace_file_atomically(file, summary_json(data));
}

}  // namespace catena::io
