#include "io/model/values.hpp"

#include <algorithm>
#include <cctype>

namespace catena::io::reader {

namespace {

constexpr std::array<std::string_view, 2> booleans{"false", "true"};

}  // namespace

bool read_bool(const Cursor& c, std::string_view what) {
  if (c.is_scalar()) {
    std::string text = c.node().Scalar();
    std::transform(text.begin(), text.end(), text.begin(),
                   [](char ch) { return static_cast<char>(std::tolower(static_cast<unsigned char>(ch))); });
    if (text == "true") return true;
    if (text == "false") return false;
  }
  return read_choice(c, booleans, what) == 1;  // fails with "expected <what>: one of false, true"
}

std::string format_vector(const fem::Vec3& v) {
  return "[" + format_number(v.x()) + ", " + format_number(v.y()) + ", " + format_number(v.z()) + "]";
}

}  // namespace catena::io::reader
