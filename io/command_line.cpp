#include "io/command_line.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <iostream>

namespace catena::io {

namespace po = boost::program_options;

namespace {

constexpr const char* usage = R"(usage: catena <command> [options] [-- petsc-options]

commands:
  run MODEL.yaml      integrate the model and write results
  check MODEL.yaml    validate the model and print a summary (unknowns, non-zeros, elements)
  info                version, linear solvers, MPI size

examples:
  catena run cases/bathe-pendulum/model.yaml
  catena run cases/bathe-pendulum/model.yaml --out runs/newmark --set analysis.integrator=newmark
  catena run model.yaml --set L=12 --set analysis.dt=1e-3 -- -pc_factor_mat_solver_type umfpack
  mpirun -n 2 catena run model.yaml --quiet
  catena run model.yaml --checkpoint-every 100       (checkpoint_<step>.ckpt in the output directory)
  catena run model.yaml --restart out/model/checkpoint_000300.ckpt
                      continue from step 300 into the same directory (later rows and frames replaced)

exit codes: 0 done, 2 bad input (also an output directory another run holds), 3 solver failure,
4 output failure (a file could not be written), 130 SIGINT, 143 SIGTERM (a checkpoint is
written at the stop when checkpoints are on; continue with --restart)

options)";

}  // namespace

std::variant<CommandLine, int> parse_command_line(int argc, char** argv) {
  // Split the command line at `--`: ours before, PETSc's after.
  std::vector<std::string> ours;
  CommandLine line;
  line.petsc_argv.push_back(argv[0]);
  bool after_separator = false;
  for (int i = 1; i < argc; ++i) {
    if (!after_separator && std::string(argv[i]) == "--") {
      after_separator = true;
      continue;
    }
    if (after_separator)
      line.petsc_argv.push_back(argv[i]);
    else
      ours.emplace_back(argv[i]);
  }

  po::options_description visible(usage);
  visible.add_options()("help,h", "show this help")(
      "out,o", po::value<std::string>(), "output directory (default out/<model name>/)")(
      "set,s", po::value<std::vector<std::string>>()->composing(),
      "override a parameter (--set L=12) or any scalar by dotted path (--set analysis.dt=0.5); repeatable")(
      "output-every", po::value<int>(),
      "write CSV rows every N steps, and VTK frames unless output.vtk_every or output.dt say otherwise "
      "(overrides analysis.output_every)")(
      "checkpoint-every", po::value<int>(),
      "write a checkpoint every N steps (overrides output.checkpoint_every; 0: none)")(
      "restart", po::value<std::string>(), "continue the run from checkpoint FILE (same model and --set)")(
      "sensitivity", po::value<std::vector<std::string>>()->composing(),
      "derivatives of every sensor and energy column with respect to these model parameters "
      "(--sensitivity EA,m), written to sensitivities.csv; eigen-analyses: of every mode's frequency, to "
      "mode_sensitivities.csv (docs/sensitivity.md)")(
      "gradient", po::value<std::vector<std::string>>()->composing(),
      "the gradient of analysis.objective with respect to these model parameters by the adjoint method "
      "(--gradient a0,a1,a2: one backward sweep for all), written to summary.json's objective_gradient "
      "(docs/sensitivity.md)")(
      "quiet,q", "no progress output")(
      "threads", po::value<int>(),
      "threads that stamp the elements on one rank (default: OMP_NUM_THREADS, else the processors available, "
      "where a pass over the elements takes 10 us or more; 1 under MPI); results do not depend on it");
  po::options_description hidden;
  hidden.add_options()("command", po::value<std::string>())("model", po::value<std::string>());
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("command", 1).add("model", 1);

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(ours).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "catena: " << e.what() << "\n(run 'catena --help')\n";
    return exit_bad_input;
  }
  if (vm.count("help") || !vm.count("command")) {
    std::cout << visible << '\n';
    return vm.count("help") ? 0 : exit_bad_input;
  }
  const std::string command = vm["command"].as<std::string>();
  line.command = command;
  if (command != "run" && command != "check" && command != "info") {
    std::cerr << "catena: unknown command '" << command << "' (expected run, check or info)\n";
    return exit_bad_input;
  }
  RunOptions& options = line.options;
  if (command != "info") {
    if (!vm.count("model")) {
      std::cerr << "catena " << command << ": missing MODEL.yaml\n";
      return exit_bad_input;
    }
    options.model = vm["model"].as<std::string>();
  }
  if (vm.count("out")) options.out = vm["out"].as<std::string>();
  if (vm.count("set")) options.overrides = vm["set"].as<std::vector<std::string>>();
  if (vm.count("output-every")) options.output_every = vm["output-every"].as<int>();
  if (vm.count("checkpoint-every")) options.checkpoint_every = vm["checkpoint-every"].as<int>();
  if (vm.count("restart")) {
    if (command != "run") {
      std::cerr << "catena " << command << ": --restart applies to run only\n";
      return exit_bad_input;
    }
    options.restart = vm["restart"].as<std::string>();
  }
  // --sensitivity and --gradient: parameter names separated by commas, each kept once.
  const auto parameter_list = [&](const char* option, std::vector<std::string>& names) {
    if (!vm.count(option)) return true;
    if (command != "run") {
      std::cerr << "catena " << command << ": --" << option << " applies to run only\n";
      return false;
    }
    for (const std::string& list : vm[option].as<std::vector<std::string>>()) {
      std::size_t from = 0;
      while (from <= list.size()) {
        const std::size_t comma = std::min(list.find(',', from), list.size());
        const std::string name = list.substr(from, comma - from);
        if (name.empty()) {
          std::cerr << "catena run: --" << option << " '" << list << "': expected parameter names separated by commas\n";
          return false;
        }
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
        from = comma + 1;
      }
    }
    return true;
  };
  if (!parameter_list("sensitivity", options.sensitivity) || !parameter_list("gradient", options.gradient))
    return exit_bad_input;
  options.quiet = vm.count("quiet") > 0;
  if (vm.count("threads")) {
    options.threads = vm["threads"].as<int>();
    if (options.threads < 1) {
      std::cerr << "catena " << command << ": --threads must be at least 1\n";
      return exit_bad_input;
    }
  }
  return line;
}

}  // namespace catena::io
