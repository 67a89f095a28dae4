#pragma once
/// catena-run links no VTK library: VTK's code is in a module of its own, libcatena_vtk.so
/// (io/vtk_grid_encoder.cpp), loaded when the first VtkWriter is made. Linked, VTK's 21 libraries
/// (17 of its own; TBB, LZ4, Expat and double-conversion) took 23 ms of a one-step run's ~105 ms,
/// a bare PETSc start and stop taking ~88 ms: 9 ms to load them, the rest in Open MPI's start,
/// whose plugins resolve their symbols through every library of the program. Loaded after PETSc
/// has started, with its own symbols looked up first (RTLD_DEEPBIND), they cost ~10 ms
/// (bench/README.md, eleventh session).
///
/// The module is looked for at $CATENA_VTK_MODULE if set, else in the folder a program named
/// (`set_module_directory`), else next to the program, else in the folder above it (the test
/// programs in build/*/tests).
#include "io/vtk_grid_encoder.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace catena::io::vtk {

/// Where a program that does not lie next to the module finds it: the Python module `catena`
/// (the program is python3) names its package's folder. Takes effect if called before the first
/// encoder is made.
void set_module_directory(const std::filesystem::path& directory);

/// A new encoder of `layout` from the module, loaded on first use. Throws std::runtime_error
/// naming the places looked in when the module cannot be loaded.
[[nodiscard]] std::unique_ptr<GridEncoder> create_grid_encoder(const GridLayout& layout);

/// Writes `grid`'s current values at time t to `file` (replacing it); returns the error naming
/// the file, empty if none.
[[nodiscard]] std::string write_grid(GridEncoder& grid, const std::filesystem::path& file, double t);

}  // namespace catena::io::vtk
