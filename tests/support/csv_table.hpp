#pragma once
// A CSV file written by `catena run` (modes.csv, buckling.csv, the sensitivities), read back as
// text cells, and a numeric column of it by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace catena::testing {

/// Every row, the header first, as text cells.
inline std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> row;
    std::stringstream s(line);
    for (std::string cell; std::getline(s, cell, ',');) row.push_back(cell);
    rows.push_back(row);
  }
  return rows;
}

/// The column `name` (by the header) of `rows`, as numbers.
inline std::vector<double> csv_column(const std::vector<std::vector<std::string>>& rows, const std::string& name) {
  const auto at = std::find(rows.at(0).begin(), rows.at(0).end(), name);
  EXPECT_NE(at, rows[0].end()) << name;
  std::vector<double> out;
  if (at == rows[0].end()) return out;
  const auto c = static_cast<std::size_t>(at - rows[0].begin());
  for (std::size_t r = 1; r < rows.size(); ++r) out.push_back(std::stod(rows[r].at(c)));
  return out;
}

}  // namespace catena::testing
