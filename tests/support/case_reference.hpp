#pragma once
// The references and tolerances of a benchmark case, read from its folder: cases/<name>/reference.yaml
// and reference.csv, the files tools/validate reads too (cases/<name>/validation.py), so that a
// number of a case is written once.
#include <map>
#include <string>
#include <vector>

namespace catena::testing {

class CaseReference {
 public:
  /// Reads cases/<name>/reference.yaml and, where they exist, reference.csv.
  explicit CaseReference(const std::string& case_name);

  /// A number of reference.yaml by its path of keys and list indices joined by '/':
  /// number("energy_tolerance"), number("large/tip_ux"), number("variants/1/first_maximum").
  [[nodiscard]] double number(const std::string& path) const;

  /// The entry of reference.csv's column `column` in the row where `key_column` equals `key`.
  [[nodiscard]] double csv_at(const std::string& key_column, double key, const std::string& column) const;

  /// A column of reference.csv.
  [[nodiscard]] const std::vector<double>& csv_column(const std::string& column) const;

 private:
  std::string name_;
  std::map<std::string, double> numbers_;               ///< reference.yaml's numeric scalars, by path
  std::map<std::string, std::vector<double>> columns_;  ///< reference.csv, by header name
};

}  // namespace catena::testing
