#include "assembly/free_processors.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

namespace catena::assembly {

namespace {

std::optional<std::string> read_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// This process's threads whose state is R (running or runnable): the one asking, at least.
int own_runnable_threads() {
  int runnable = 0;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    const std::optional<std::string> stat = read_file(task.path() / "stat");
    // "tid (name) S ...": the name may hold spaces and parentheses, the state follows the last ')'.
    const std::size_t close = stat ? stat->rfind(')') : std::string::npos;
    if (close != std::string::npos && close + 2 < stat->size() && (*stat)[close + 2] == 'R') ++runnable;
  }
  return std::max(runnable, 1);
}

}  // namespace

std::optional<int> free_processors(std::string_view loadavg, int own_runnable, int online) {
  // Three load averages, then "runnable/total".
  std::size_t at = 0;
  for (int field = 0; field < 3; ++field) {
    at = loadavg.find(' ', at);
    if (at == std::string_view::npos) return std::nullopt;
    ++at;
  }
  int runnable = 0;
  const char* begin = loadavg.data() + at;
  const char* end = loadavg.data() + loadavg.size();
  const auto [next, error] = std::from_chars(begin, end, runnable);
  if (error != std::errc() || next == begin || next == end || *next != '/') return std::nullopt;
  return std::max(0, online - std::max(0, runnable - own_runnable));
}

std::optional<int> free_processors() {
  const std::optional<std::string> loadavg = read_file("/proc/loadavg");
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  if (!loadavg || online < 1) return std::nullopt;
  return free_processors(*loadavg, own_runnable_threads(), static_cast<int>(online));
}

}  // namespace catena::assembly
