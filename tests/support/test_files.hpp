#pragma once
// Small helpers shared by the io tests: scratch directories and files, elements of a type, and
// running the catena executable.
#include "fem/model.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <sys/wait.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace catena::testing {

/// A fresh, empty directory per test (named after it), removed at the end.
class ScratchDirectory {
 public:
  ScratchDirectory() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() / ("catena_" + std::string(info->test_suite_name()) + "_" +
                                                      info->name() + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// The whole file, bytes as they are ("" when it cannot be read).
inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A number written by the output writers, the whole text of it.
inline double parse_double(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  EXPECT_EQ(*end, '\0') << "not a number: '" << text << "'";
  return v;
}

/// Writes `text` to `<gtest temp dir>/<folder>/<pid>/<file_name>` and returns the path. The process
/// id keeps tests that ctest runs at the same time (each in its own process) from writing the
/// same file.
inline std::filesystem::path write_temp(const std::string& folder, const std::string& file_name,
                                        const std::string& text) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / folder / std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / file_name;
  std::ofstream(file) << text;
  return file;
}

/// The model's elements of type E, in model order.
template <class E>
std::vector<const E*> elements_of(const fem::Model& model) {
  std::vector<const E*> out;
  for (const auto& e : model.elements)
    if (const auto* typed = dynamic_cast<const E*>(e.get())) out.push_back(typed);
  return out;
}

/// What a run of the catena executable (CATENA_EXECUTABLE) returned and printed.
/// The value of `key` in summary.json's text as written: a string without its quotes (escapes
/// left as they are), a number or `null` as text; "" when the key is absent.
inline std::string summary_value(const std::string& json, const std::string& key) {
  const std::string label = "\"" + key + "\": ";
  const std::size_t at = json.find(label);
  if (at == std::string::npos) return "";
  std::size_t first = at + label.size();
  if (first < json.size() && json[first] == '"') {
    std::size_t last = ++first;
    while (last < json.size() && json[last] != '"') last += json[last] == '\\' ? 2 : 1;
    return json.substr(first, last - first);
  }
  return json.substr(first, json.find_first_of(",\n}", first) - first);
}

/// A number of summary.json's text (NaN when the key is absent or not a number).
inline double summary_number(const std::string& json, const std::string& key) {
  try {
    return std::stod(summary_value(json, key));
  } catch (const std::exception&) {
    return std::nan("");
  }
}

struct CliResult {
  int code = -1;       ///< exit code (-1: killed by a signal)
  std::string output;  ///< stdout and stderr together
};

/// Runs `catena <args>` through the shell (args as a command line) and waits for it.
inline CliResult run_cli(const std::string& args) {
  static std::atomic<int> counter{0};
  const std::filesystem::path log = std::filesystem::temp_directory_path() /
                                    ("catena_cli_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".log");
  const std::string cmd = std::string(CATENA_EXECUTABLE) + " " + args + " > '" + log.string() + "' 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream in(log);
  std::stringstream s;
  s << in.rdbuf();
  in.close();
  std::filesystem::remove(log);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, s.str()};
}

/// The same with every argument single-quoted (no shell expansion of paths or values).
inline CliResult run_cli(const std::vector<std::string>& args) {
  std::string line;
  for (const std::string& a : args) line += " '" + a + "'";
  return run_cli(line);
}

/// Starts `catena <args>` without waiting (argv, no shell, so a signal reaches catena itself),
/// its stdout and stderr into `log`; returns the process id to signal and wait for.
inline pid_t spawn_cli(const std::vector<std::string>& args, const std::filesystem::path& log) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    // SIGINT and SIGTERM blocked across the exec, as `catena` blocks them until the solver has its
    // handlers (io/main.cpp): a signal sent before the program's own first line (its start-up takes
    // more than 5 ms under AddressSanitizer) stays pending instead of killing a process that cannot
    // have a handler yet.
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    ::sigprocmask(SIG_BLOCK, &stops, nullptr);
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<char*> argv{const_cast<char*>(CATENA_EXECUTABLE)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(CATENA_EXECUTABLE, argv.data());
    ::_exit(127);
  }
  return pid;
}

}  // namespace catena::testing
