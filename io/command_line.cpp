#include "io/command_line.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>
#include <limits>
#include <optional>

namespace catena::io {

namespace po = boost::program_options;

namespace {

constexpr const char* usage = R"(usage: catena <command> [options] [-- petsc-options]

commands:
  run MODEL.yaml      integrate the model and write results
  optimize MODEL.yaml minimize the model's analysis.objective over --parameters within --bounds
                      (PETSc TAO's bounded quasi-Newton; docs/sensitivity.md, "Optimization")
  check MODEL.yaml    validate the model and print a summary (unknowns, non-zeros, elements)
  info                version, linear solvers, MPI size

examples:
  catena run cases/bathe-pendulum/model.yaml
  catena run cases/bathe-pendulum/model.yaml --out runs/newmark --set analysis.integrator=newmark
  catena run model.yaml --set L=12 --set analysis.dt=1e-3 -- -pc_factor_mat_solver_type umfpack
  mpirun -n 2 catena run model.yaml --quiet
                      on two ranks; as root, Open MPI refuses to start without
                      --allow-run-as-root: mpirun --allow-run-as-root -n 2 catena run ...
  catena run model.yaml --checkpoint-every 100       (checkpoint_<step>.ckpt in the output directory)
  catena run model.yaml --restart out/model/checkpoint_000300.ckpt
                      continue from step 300 into the same directory (later rows and frames replaced)
  catena optimize cases/slider-crank-design/model.yaml --parameters a0,a1,a2 --bounds a0=-20:20
                      iterations in optimize.csv and optimize.json, the optimum's run in the directory

exit codes: 0 done, 2 bad input (also an output directory another run holds), 3 solver failure,
4 output failure (a file could not be written), 130 SIGINT, 143 SIGTERM (a checkpoint is
written at the stop when checkpoints are on; continue with --restart)

options)";

/// The names of a comma-separated list, appended to `names` once each; false (the message
/// printed, saying what the list holds: `what`) for an empty name.
bool append_names(const std::string& list, const std::string& command, const std::string& option,
                  std::vector<std::string>& names, const char* what = "parameter names") {
  std::size_t from = 0;
  while (from <= list.size()) {
    const std::size_t comma = std::min(list.find(',', from), list.size());
    const std::string name = list.substr(from, comma - from);
    if (name.empty()) {
      std::cerr << "catena " << command << ": " << option << " '" << list
                << "': expected " << what << " separated by commas\n";
      return false;
    }
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    from = comma + 1;
  }
  return true;
}

/// One side of a bound: a number, or empty for none (`infinity` with the sign given).
std::optional<double> bound_value(const std::string& text, double infinity) {
  if (text.empty()) return infinity;
  // from_chars takes no leading '+'; a bound may have one.
  const char* begin = text.data() + (text.front() == '+' && text.size() > 1 ? 1 : 0);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || std::isnan(value)) return std::nullopt;
  return value;
}

/// --bounds items `name=lower:upper` (comma-separated, repeatable) into `options`; false (the
/// message printed) for a malformed item, a parameter not in --parameters, lower > upper or a
/// parameter bounded twice.
bool parse_bounds(const std::vector<std::string>& lists, OptimizeOptions& options) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (const std::string& list : lists) {
    std::vector<std::string> items;
    if (!append_names(list, "optimize", "--bounds", items, "NAME=LOWER:UPPER items")) return false;
    for (const std::string& item : items) {
      const std::size_t equals = item.find('=');
      const std::size_t colon = item.find(':', equals == std::string::npos ? 0 : equals);
      if (equals == std::string::npos || equals == 0 || colon == std::string::npos) {
        std::cerr << "catena optimize: --bounds '" << item
                  << "': expected NAME=LOWER:UPPER (either side may be left empty: no bound there)\n";
        return false;
      }
      OptimizeOptions::Bounds b;
      b.parameter = item.substr(0, equals);
      const std::optional<double> lower = bound_value(item.substr(equals + 1, colon - equals - 1), -inf);
      const std::optional<double> upper = bound_value(item.substr(colon + 1), inf);
      if (!lower || !upper) {
        std::cerr << "catena optimize: --bounds '" << item << "': the bounds are not numbers\n";
        return false;
      }
      b.lower = *lower;
      b.upper = *upper;
      if (b.lower > b.upper) {
        std::cerr << "catena optimize: --bounds '" << item << "': the lower bound exceeds the upper one\n";
        return false;
      }
      const auto& names = options.parameters;
      if (std::find(names.begin(), names.end(), b.parameter) == names.end()) {
        std::string listed;
        for (const std::string& n : names) listed += (listed.empty() ? "" : ",") + n;
        std::cerr << "catena optimize: --bounds '" << item << "': '" << b.parameter
                  << "' is not one of --parameters " << listed << '\n';
        return false;
      }
      if (std::any_of(options.bounds.begin(), options.bounds.end(),
                      [&](const OptimizeOptions::Bounds& o) { return o.parameter == b.parameter; })) {
        std::cerr << "catena optimize: --bounds: '" << b.parameter << "' is bounded twice\n";
        return false;
      }
      options.bounds.push_back(b);
    }
  }
  return true;
}

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
      "parameters", po::value<std::vector<std::string>>()->composing(),
      "optimize: the model parameters to optimize (--parameters a0,a1,a2), starting from their values in the "
      "model (and --set)")(
      "bounds", po::value<std::vector<std::string>>()->composing(),
      "optimize: bounds of the parameters, NAME=LOWER:UPPER (--bounds a0=-10:10,a1=0:); a side left "
      "empty, or a parameter not named, is unbounded")(
      "max-iterations", po::value<int>(), "optimize: at most N iterations of the minimizer (default 50)")(
      "gradient-tolerance", po::value<double>(),
      "optimize: converged when the projected gradient's norm has fallen to this fraction of its value at the "
      "start (default 1e-6)")(
      "gradient-method", po::value<std::string>(),
      "optimize: each run's gradient by the direct method, as --sensitivity (direct, the default), or by "
      "the adjoint, as --gradient (adjoint: cheaper for many parameters; one process)")(
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
  if (command != "run" && command != "optimize" && command != "check" && command != "info") {
    std::cerr << "catena: unknown command '" << command << "' (expected run, optimize, check or info)\n";
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
    for (const std::string& list : vm[option].as<std::vector<std::string>>())
      if (!append_names(list, command, std::string("--") + option, names)) return false;
    return true;
  };
  if (!parameter_list("sensitivity", options.sensitivity) || !parameter_list("gradient", options.gradient))
    return exit_bad_input;
  for (const char* option : {"parameters", "bounds", "max-iterations", "gradient-tolerance", "gradient-method"})
    if (vm.count(option) && command != "optimize") {
      std::cerr << "catena " << command << ": --" << option << " applies to optimize only\n";
      return exit_bad_input;
    }
  if (command == "optimize") {
    OptimizeOptions& optimize = line.optimize;
    if (!vm.count("parameters")) {
      std::cerr << "catena optimize: missing --parameters (the model parameters to optimize, --parameters a0,a1)\n";
      return exit_bad_input;
    }
    for (const std::string& list : vm["parameters"].as<std::vector<std::string>>())
      if (!append_names(list, command, "--parameters", optimize.parameters)) return exit_bad_input;
    if (vm.count("bounds") && !parse_bounds(vm["bounds"].as<std::vector<std::string>>(), optimize))
      return exit_bad_input;
    if (vm.count("max-iterations")) {
      optimize.max_iterations = vm["max-iterations"].as<int>();
      if (optimize.max_iterations < 1) {
        std::cerr << "catena optimize: --max-iterations must be at least 1\n";
        return exit_bad_input;
      }
    }
    if (vm.count("gradient-tolerance")) {
      optimize.gradient_tolerance = vm["gradient-tolerance"].as<double>();
      if (!(optimize.gradient_tolerance > 0.0) || std::isinf(optimize.gradient_tolerance)) {
        std::cerr << "catena optimize: --gradient-tolerance must be a positive number\n";
        return exit_bad_input;
      }
    }
    if (vm.count("gradient-method")) {
      const std::string method = vm["gradient-method"].as<std::string>();
      if (method != "direct" && method != "adjoint") {
        std::cerr << "catena optimize: --gradient-method '" << method << "': expected direct or adjoint\n";
        return exit_bad_input;
      }
      optimize.adjoint = method == "adjoint";
    }
  }
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
