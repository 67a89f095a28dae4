#pragma once
// A matrix exported by an eigen-analysis (`export_matrices: true`: K.mtx, D.mtx, M.mtx) read back.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>

namespace catena::testing {

/// Entries (row, column) → value of a Matrix Market coordinate file (1-based in the file).
inline std::map<std::pair<int, int>, double> read_market(const std::filesystem::path& file, int& n) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  EXPECT_TRUE(line.starts_with("%%MatrixMarket matrix coordinate") && line.find("real") != std::string::npos) << line;
  while (std::getline(in, line) && line.starts_with("%")) {
  }
  std::stringstream header(line);
  int rows = 0, cols = 0, nnz = 0;
  header >> rows >> cols >> nnz;
  EXPECT_EQ(rows, cols);
  n = rows;
  std::map<std::pair<int, int>, double> a;
  int i = 0, j = 0;
  double v = 0.0;
  while (in >> i >> j >> v) a[{i - 1, j - 1}] += v;
  return a;
}

}  // namespace catena::testing
