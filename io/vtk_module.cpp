#include "io/vtk_module.hpp"

#include "io/output_directory.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace catena::io::vtk {

namespace {

constexpr const char* module_name = "libcatena_vtk.so";

/// set_module_directory's folder (empty: none).
std::filesystem::path& named_directory() {
  static std::filesystem::path directory;
  return directory;
}

std::vector<std::filesystem::path> module_candidates() {
  if (const char* path = std::getenv("CATENA_VTK_MODULE"); path && *path) return {path};
  std::vector<std::filesystem::path> candidates;
  if (!named_directory().empty()) candidates.push_back(named_directory() / module_name);
  std::error_code ec;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    candidates.emplace_back(module_name);  // the loader's own search
    return candidates;
  }
  candidates.push_back(program.parent_path() / module_name);
  candidates.push_back(program.parent_path().parent_path() / module_name);
  return candidates;
}

/// VTK computes array ranges for the file header with vtkSMPTools, whose default std::thread
/// backend starts threads for every array of every frame: 20 ms per frame on a 15-node model,
/// more than its solve. A frame's arrays are small next to that, and the cores belong to the
/// solver, so VTK runs sequentially unless the user chose a backend. VTK reads the variable once,
/// when its SMP layer first starts, which is after the module is loaded. (vtkSMPTools::LocalScope
/// would be the direct way, but VTK 9.1's vtkSMPTools.h does not compile as C++20.)
void choose_sequential_vtk_smp() { setenv("VTK_SMP_BACKEND_IN_USE", "Sequential", /*overwrite=*/0); }

CreateGridEncoder load_module() {
  choose_sequential_vtk_smp();
  // Its own symbols first: VTK's libraries then resolve among themselves instead of searching
  // every library of catena-run before their own. Sanitizers do not support RTLD_DEEPBIND (their
  // allocator must stay the one found first).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  constexpr int flags = RTLD_NOW | RTLD_LOCAL;
#else
  constexpr int flags = RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND;
#endif
  std::string tried;
  for (const std::filesystem::path& candidate : module_candidates()) {
    if (void* module = dlopen(candidate.c_str(), flags)) {
      if (void* entry = dlsym(module, create_grid_encoder_symbol))
        return reinterpret_cast<CreateGridEncoder>(entry);
      throw std::runtime_error(candidate.string() + " is not Catena's VTK module (no " +
                               create_grid_encoder_symbol + ")");
    }
    const char* why = dlerror();
    tried += "\n  " + candidate.string() + ": " + (why ? why : "cannot be loaded");
  }
  throw std::runtime_error(std::string("VTK output needs Catena's VTK module, ") + module_name +
                           ", built next to catena-run by `make build` (or named by CATENA_VTK_MODULE); tried:" +
                           tried);
}

}  // namespace

void set_module_directory(const std::filesystem::path& directory) { named_directory() = directory; }

std::unique_ptr<GridEncoder> create_grid_encoder(const GridLayout& layout) {
  static std::once_flag once;
  static CreateGridEncoder create = nullptr;
  std::call_once(once, [] { create = load_module(); });
  return std::unique_ptr<GridEncoder>(create(layout));
}

std::string write_grid(GridEncoder& grid, const std::filesystem::path& file, double t) {
  // Into memory, then one write: VTK's file stream flushes after every array and piece header
  // (a fifth of a small frame's cost in write system calls). No temporary name (a rename per
  // frame costs as much as the index's, io/pvd_index.hpp): the index lists a frame only once its file is
  // complete, a restart overwrites one it does not list, and write_new_file removes a file it
  // could not complete. A new inode each time: a symbolic link under the name is not followed.
  std::string content;
  try {
    content = grid.encode(t);
  } catch (const std::exception& e) {
    return file.string() + ": " + e.what() + " at t = " + format_double(t);
  }
  try {
    write_new_file(file, content);
  } catch (const OutputError& e) {
    return std::string(e.what()) + " at t = " + format_double(t);
  }
  return {};
}

}  // namespace catena::io::vtk
