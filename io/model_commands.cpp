// The commands that read a model but never solve it: `catena check` and `catena info`, and the
// model loading that `run` shares. Nothing here links PETSc, MPI or VTK (io/main.cpp says why).
#include "assembly/launcher.hpp"
#include "io/beam_axes.hpp"
#include "io/commands.hpp"
#include "io/model_check.hpp"
#include "io/model_reader.hpp"

#include <petscversion.h>  // version macros only
#include <slepcversion.h>

#include <unistd.h>

#include <algorithm>
#include <iostream>

namespace catena::io {

namespace {

/// Before any MPI session, the rank is what the launcher says: one rank prints.
bool is_root() { return assembly::launcher::rank() == 0; }

}  // namespace

fem::Model read_options_model(const RunOptions& options, std::span<const std::string> overrides) {
  if (options.model_text) return read_model(ModelText{*options.model_text, options.model.string()}, overrides);
  return read_model(options.model, overrides);
}

std::string options_restart_document(const RunOptions& options) {
  if (options.model_text) return restart_document(ModelText{*options.model_text, options.model.string()}, options.overrides);
  return restart_document(options.model, options.overrides);
}

fem::Model read_run_model(const RunOptions& options) {
  try {
    fem::Model model = read_options_model(options, options.overrides);
    if (options.output_every) {
      if (*options.output_every < 1) throw std::invalid_argument("--output-every: expected a positive integer");
      model.analysis.output_every = *options.output_every;
    }
    if (options.checkpoint_every) {
      if (*options.checkpoint_every < 0)
        throw std::invalid_argument("--checkpoint-every: expected a whole number >= 0 (0: no checkpoints)");
      model.analysis.checkpoint_every = *options.checkpoint_every;
    }
    return model;
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw ModelLoadError(options.model.string() + ": " + e.what());
  }
}

std::optional<fem::Model> load_model(const RunOptions& options, bool report) {
  try {
    return read_run_model(options);
  } catch (const std::exception& e) {
    if (report) std::cerr << e.what() << '\n';
  }
  return std::nullopt;
}

int check_command(const RunOptions& options) {
  std::optional<fem::Model> model = load_model(options, is_root());
  if (!model) return exit_bad_input;
  if (!is_root()) return exit_ok;
  const ModelCheck check = check_model(*model, options.model.string());
  if (check.refusal) {
    std::cerr << *check.refusal << '\n';
    return exit_bad_input;
  }
  std::cout << options.model.string() << ": model '" << model->name << "' is valid\n"
            << "  nodes       " << model->nodes.size() << '\n'
            << "  unknowns    " << check.size.unknowns << '\n'
            << "  non-zeros   " << check.size.nonzeros << '\n';
  for (const auto& [kind, n] : check.element_kinds)
    std::cout << "  " << kind << std::string(12 - std::min<std::size_t>(11, kind.size()), ' ') << n << '\n';
  for (const auto& set : model->sets)
    std::cout << "  set " << set.name << ": "
              << (set.nodes.empty() ? std::to_string(set.elements.size()) + " elements"
                                    : std::to_string(set.nodes.size()) + " nodes")
              << '\n';
  // Which way each beam bends under each stiffness, in global terms (local z = x × y).
  for (const std::string& line : describe_beam_axes(*model)) std::cout << "  " << line << '\n';
  std::cout << "  sensors     " << model->sensors.size() << '\n'
            << "  analysis    ";
  const fem::LinearizedSettings& lin = model->analysis.linearized;
  if (model->analysis.type == fem::AnalysisType::Eigen) {
    std::cout << "eigen, " << lin.modes << " modes about "
              << (lin.about_equilibrium ? "the equilibrium" : "the given configuration");
    if (!lin.frame_angular_velocity.isZero())
      std::cout << ", turning frame " << lin.frame_angular_velocity.norm() << " rad/s";
    std::cout << '\n';
  } else if (model->analysis.type == fem::AnalysisType::Buckling) {
    std::cout << "buckling, preload " << lin.preload << ", path to load factor " << lin.load_factor_max << " in "
              << lin.increments << " increments\n";
  } else if (model->analysis.type == fem::AnalysisType::Static) {
    std::cout << "static, first increment dt = " << model->analysis.dt << ", t_end = " << model->analysis.t_end << '\n';
  } else {
    std::cout << "dynamic, " << (model->analysis.scheme == fem::TimeScheme::Midpoint ? "midpoint" : "newmark")
              << ", dt = " << model->analysis.dt << " s, t_end = " << model->analysis.t_end << " s\n";
  }
  if (check.has_joints)
    std::cout << "  constraints "
              << (check.constraints_tested ? "independent (the rank test of the Newton matrix at t = 0)"
                                           : "not tested for redundancy (" + std::to_string(check.size.unknowns) +
                                                 " unknowns; the dense rank test runs up to 1500)")
              << '\n';
  return exit_ok;
}

int info_command() {
  if (!is_root()) return exit_ok;
  std::cout << "catena " << CATENA_VERSION << "\n"
            << "  MPI ranks       " << assembly::launcher::size() << "\n"
            << "  PETSc           " << PETSC_VERSION_MAJOR << '.' << PETSC_VERSION_MINOR << '.' << PETSC_VERSION_SUBMINOR
            << "\n"
            << "  linear solvers  auto (default: petsc's LU in saddle-point order on one rank, superlu\n"
            << "                  if it fails; mumps on several), mumps, klu, umfpack, superlu,\n"
            << "                  petsc (serial only except mumps)\n"
            << "  eigensolvers    SLEPc " << SLEPC_VERSION_MAJOR << '.' << SLEPC_VERSION_MINOR << '.'
            << SLEPC_VERSION_SUBMINOR << " (EPS, PEP; shift-and-invert with the linear solver)\n"
            << "  parallel runs   mpirun -n N catena run MODEL.yaml\n";
  // Open MPI's mpirun refuses root before Catena starts, so the hint must be where users look first.
  if (::geteuid() == 0)
    std::cout << "                  as root (you are): mpirun --allow-run-as-root -n N catena run MODEL.yaml\n";
  return exit_ok;
}

}  // namespace catena::io
