#include "io/vtk_module.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace catena::io::vtk {

namespace {

constexpr const char* module_name = "libcatena_vtk.so";

std::vector<std::filesystem::path> module_candidates() {
  if (const char* path = std::getenv("CATENA_VTK_MODULE"); path && *path) return {path};
  std::error_code ec;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {module_name};  // the loader's own search
  return {program.parent_path() / module_name, program.parent_path().parent_path() / module_name};
}

CreateGridEncoder load_module() {
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

std::unique_ptr<GridEncoder> create_grid_encoder(const GridLayout& layout) {
  static std::once_flag once;
  static CreateGridEncoder create = nullptr;
  std::call_once(once, [] { create = load_module(); });
  return std::unique_ptr<GridEncoder>(create(layout));
}

}  // namespace catena::io::vtk
