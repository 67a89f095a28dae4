#include "support/case_reference.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace catena::testing {
namespace {

std::filesystem::path case_folder(const std::string& name) {
  return std::filesystem::path(CATENA_SOURCE_DIR) / "cases" / name;
}

/// Every numeric scalar below `node`, keyed by its path of keys and indices joined by '/'.
void collect_numbers(const YAML::Node& node, const std::string& path, std::map<std::string, double>& out) {
  if (node.IsMap()) {
    for (const auto& entry : node)
      collect_numbers(entry.second, path.empty() ? entry.first.as<std::string>() : path + "/" + entry.first.as<std::string>(), out);
  } else if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) collect_numbers(node[i], path + "/" + std::to_string(i), out);
  } else if (node.IsScalar()) {
    double value = 0.0;
    if (YAML::convert<double>::decode(node, value)) out[path] = value;  // texts (source, theory) are not numbers
  }
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

/// Columns of a CSV whose lines starting with '#' are comments.
std::map<std::string, std::vector<double>> read_columns(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> header;
  std::map<std::string, std::vector<double>> columns;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() == '#') continue;
    std::vector<std::string> cells;
    std::stringstream cells_in(line);
    for (std::string cell; std::getline(cells_in, cell, ',');) cells.push_back(trimmed(cell));
    if (header.empty()) {
      header = cells;
      continue;
    }
    if (cells.size() != header.size()) throw std::runtime_error(file.string() + ": a row of " + std::to_string(cells.size()) + " values");
    for (std::size_t i = 0; i < cells.size(); ++i) columns[header[i]].push_back(std::stod(cells[i]));
  }
  return columns;
}

}  // namespace

CaseReference::CaseReference(const std::string& case_name) : name_(case_name) {
  const std::filesystem::path folder = case_folder(case_name);
  if (!std::filesystem::exists(folder / "reference.yaml"))
    throw std::runtime_error("cases/" + case_name + "/reference.yaml does not exist");
  collect_numbers(YAML::LoadFile((folder / "reference.yaml").string()), "", numbers_);
  if (std::filesystem::exists(folder / "reference.csv")) columns_ = read_columns(folder / "reference.csv");
}

double CaseReference::number(const std::string& path) const {
  const auto it = numbers_.find(path);
  if (it == numbers_.end()) throw std::runtime_error("cases/" + name_ + "/reference.yaml has no number at " + path);
  return it->second;
}

const std::vector<double>& CaseReference::csv_column(const std::string& column) const {
  const auto it = columns_.find(column);
  if (it == columns_.end()) throw std::runtime_error("cases/" + name_ + "/reference.csv has no column " + column);
  return it->second;
}

double CaseReference::csv_at(const std::string& key_column, double key, const std::string& column) const {
  const std::vector<double>& keys = csv_column(key_column);
  const std::vector<double>& values = csv_column(column);
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (std::abs(keys[i] - key) <= 1e-9 * std::max(1.0, std::abs(key))) return values[i];
  throw std::runtime_error("cases/" + name_ + "/reference.csv has no row with " + key_column + " = " + std::to_string(key));
}

}  // namespace catena::testing
