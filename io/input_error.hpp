#pragma once
/// The error every part of the reader throws for a mistake in a model file or a `--set` override.
/// A header of its own so that the YAML cursor and the overrides, which the reader uses, need not
/// include the reader.
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

}  // namespace catena::io
