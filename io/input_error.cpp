#include "io/input_error.hpp"

namespace catena::io {

namespace {

std::string format_error(const std::string& file, int line, int column, const std::string& key,
                         const std::string& message) {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
  out += ": ";
  if (!key.empty()) out += key + ": ";
  return out + message;
}

}  // namespace

InputError::InputError(std::string file, int line, int column, std::string key, std::string message)
    : std::runtime_error(format_error(file, line, column, key, message)),
      file_(std::move(file)),
      line_(line),
      column_(column),
      key_(std::move(key)),
      message_(std::move(message)) {}

}  // namespace catena::io
