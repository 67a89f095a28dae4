#pragma once
/// The model reader: a YAML model file (format and every key: docs/model-format.md) is read,
/// validated and built into a `fem::Model`. Every user error (malformed YAML, unknown or missing
/// keys, wrong types, bad expressions, unknown node names, non-physical values) is reported as an
/// `InputError` naming the file, line, column and key path of the offending value, with what was
/// expected and what was found. yaml-cpp stays inside io/*.cpp: this header does not include it.
#include "fem/model.hpp"

#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>

namespace catena::io {

/// A user error in a model file: file, line and column (1-based) and the key path.
/// `what()` is "FILE:LINE:COL: KEY: MESSAGE"; the position is left out when unknown (line 0, as for
/// a `--set` override that names no existing value: "--set: KEY: MESSAGE"), and the key when empty
/// (malformed YAML: "FILE:LINE:COL: MESSAGE").
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, int column, std::string key, std::string message);
  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] int line() const { return line_; }
  [[nodiscard]] int column() const { return column_; }
  [[nodiscard]] const std::string& key() const { return key_; }
  /// The message alone, without file, position and key.
  [[nodiscard]] const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  int column_;
  std::string key_;
  std::string message_;
};

/// Reads, validates and builds a model. `overrides` are the `--set key=value` strings of the
/// command line: a declared parameter name replaces that parameter (its value may be an expression
/// of earlier parameters); otherwise `key` is a dotted path into the document (`analysis.dt`,
/// `nodes.1.position.0`, `trusses.rod.EA`) whose scalar is replaced, or added when the key is a
/// known optional key of an existing mapping. Throws `InputError`.
fem::Model read_model(const std::filesystem::path& file, std::span<const std::string> overrides = {});

}  // namespace catena::io
