#include "io/linearized_command.hpp"

#include "assembly/collectives.hpp"
#include "assembly/matrix_market.hpp"
#include "assembly/petsc_session.hpp"
#include "elements/node_inertia.hpp"
#include "fem/rotation.hpp"
#include "io/csv_writer.hpp"
#include "io/input_error.hpp"
#include "io/linearized_cell_values.hpp"
#include "io/output_directory.hpp"
#include "io/run_directory.hpp"
#include "io/sensitivity_models.hpp"
#include "io/stop_signals.hpp"
#include "io/summary_writer.hpp"
#include "io/vtk_writer.hpp"
#include "solvers/eigen_sensitivity.hpp"
#include "solvers/linearized_analysis.hpp"

#include <cmath>
#include <exception>
#include <cstdio>
#include <iostream>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

namespace catena::io {

namespace {

bool is_root() { return assembly::PetscSession::rank() == 0; }

const char* kind_name(solvers::ModeKind k) {
  switch (k) {
    case solvers::ModeKind::Rigid: return "rigid";
    case solvers::ModeKind::Elastic: return "elastic";
    case solvers::ModeKind::Unstable: return "unstable";
  }
  return "elastic";
}

/// Writes a mode φ = re + i im (im empty: a real φ) as a series of states base + a Im(φ e^{iθ})
/// = base + a (sin θ re + cos θ im), θ = 2π k/F, k = 0 … F, whose cell data are the elements'
/// linearized about `base` (io/linearized_cell_values.hpp).
void write_mode_series(const fem::Model& model, const assembly::Tableau& tableau, std::span<const fem::NodeState> base,
                       std::span<const double> re, std::span<const double> im, const std::filesystem::path& dir) {
  const fem::LinearizedSettings& a = model.analysis.linearized;
  const double amplitude = a.mode_amplitude > 0.0 ? a.mode_amplitude : 0.1 * model.length_scale;
  const fem::DofMap& map = tableau.global_map();
  auto block = [&](std::span<const double> shape, fem::BlockId b) {
    fem::Vec3 v = fem::Vec3::Zero();
    if (!b.valid()) return v;
    const auto dofs = map.dofs(b);
    for (int c = 0; c < 3; ++c)
      if (dofs[c] != fem::fixed_dof) v[c] = shape[static_cast<std::size_t>(dofs[c])];
    return v;
  };
  LinearizedCellValues cell_values(model, base);
  VtkWriter vtk(dir, model, &cell_values);
  std::vector<fem::NodeState> states(base.begin(), base.end());
  for (int k = 0; k <= a.mode_frames; ++k) {
    const double phase = static_cast<double>(k) / a.mode_frames;
    const double at_sin = amplitude * std::sin(2.0 * std::numbers::pi * phase);
    const double at_cos = amplitude * std::cos(2.0 * std::numbers::pi * phase);
    auto motion = [&](fem::BlockId b) {
      fem::Vec3 v = at_sin * block(re, b);
      if (!im.empty()) v += at_cos * block(im, b);
      return v;
    };
    for (std::size_t n = 0; n < states.size(); ++n) {
      const fem::Node& node = model.nodes[n];
      states[n].position = base[n].position + motion(node.displacement);
      states[n].velocity.setZero();
      states[n].angular_velocity.setZero();
      if (node.rotation.valid())
        states[n].orientation =
            (fem::quaternion_from_rotation_vector(motion(node.rotation)) * base[n].orientation).normalized();
    }
    vtk.on_frame(solvers::Frame{phase, k, &model, states, {}});
  }
}

/// mode_sensitivities.csv: per mode, the derivatives of modes.csv's numeric columns with respect
/// to each parameter (`<column>:<parameter>`, per unit of the parameter); NaN where there is none.
std::string mode_sensitivities_csv(const solvers::EigenResult& r, const std::vector<solvers::ParameterModels>& parameters,
                                   const std::vector<std::vector<std::complex<double>>>& dmu) {
  std::ostringstream csv;
  csv.precision(17);
  csv << "mode";
  for (const solvers::ParameterModels& p : parameters)
    for (const char* column : {"frequency_hz", "natural_frequency_hz", "damping_ratio", "s_real", "s_imag"})
      csv << ',' << column << ':' << p.name;
  csv << '\n';
  const double hz = 1.0 / (2.0 * std::numbers::pi);
  for (std::size_t k = 0; k < r.modes.size(); ++k) {
    csv << k + 1;
    for (std::size_t p = 0; p < parameters.size(); ++p) {
      const solvers::ModeDerivative d = solvers::mode_derivative(r.modes[k], dmu[k][p]);
      csv << ',' << hz * d.damped_frequency << ',' << hz * d.natural_frequency << ',' << d.damping_ratio << ','
          << d.s.real() << ',' << d.s.imag();
    }
    csv << '\n';
  }
  return csv.str();
}

/// buckling_sensitivities.csv: the derivatives of summary.json's critical_load_factor_linear with
/// respect to each parameter (`critical_load_factor_linear:<parameter>`, per unit of the
/// parameter), one row; NaN where there is none.
std::string buckling_sensitivities_csv(const std::vector<solvers::ParameterModels>& parameters,
                                       const std::vector<double>& derivatives) {
  std::ostringstream csv;
  csv.precision(17);
  for (std::size_t p = 0; p < parameters.size(); ++p)
    csv << (p ? "," : "") << "critical_load_factor_linear:" << parameters[p].name;
  csv << '\n';
  for (std::size_t p = 0; p < parameters.size(); ++p) csv << (p ? "," : "") << derivatives[p];
  csv << '\n';
  return csv.str();
}

/// --sensitivity of an eigen or buckling analysis: the models at the perturbed values, with their
/// inertia as the run's model will have it. Throws what refuses them (bad input).
std::vector<solvers::ParameterModels> read_eigen_parameter_models(const RunOptions& options, const fem::Model& model) {
  std::vector<solvers::ParameterModels> parameters = read_parameter_models(options, model);
  for (solvers::ParameterModels& p : parameters)
    for (const std::unique_ptr<fem::Model>& m : p.models) {
      // Not part of the compared structure, but it decides the linearization point.
      if (m->analysis.linearized.about_equilibrium != model.analysis.linearized.about_equilibrium)
        throw SensitivityInputError("--sensitivity: parameter '" + p.name +
                                    "' changes analysis.about: it cannot be differentiated by");
      // The point the linear buckling problem is about, and its difference step.
      if (m->analysis.linearized.preload != model.analysis.linearized.preload)
        throw SensitivityInputError("--sensitivity: parameter '" + p.name +
                                    "' changes analysis.preload: it cannot be differentiated by");
      elements::add_node_inertia(*m);
    }
  return parameters;
}

/// Writes summary.json (rank 0); what `catena run` prints when it cannot be written, else nothing.
std::string write_summary_or_message(const std::filesystem::path& file, const SummaryData& summary) {
  if (!is_root()) return {};
  try {
    write_summary_json(file, summary);
    return {};
  } catch (const std::exception& e) {
    return std::string("catena: ") + e.what();
  }
}

/// summary.json of an analysis that did not complete, written (rank 0), and what `catena run`
/// prints for it: its message, and below it why summary.json could not be written.
std::string failure_message(const SummaryData& summary, const std::filesystem::path& out) {
  const std::string unwritten = write_summary_or_message(out / "summary.json", summary);
  return "catena: " + summary.message + (unwritten.empty() ? "" : "\n" + unwritten);
}

/// Runs `write`, the files rank 0 alone writes, on rank 0, then tells every rank whether it
/// succeeded: a failure there is thrown on every rank (rank 0's own exception, an OutputError on
/// the others), so that no rank goes on into a collective call (the eigensolver, a factorization's
/// release) that rank 0 has left, which would hang the run.
template <class Write>
void write_on_root(Write&& write) {
  std::exception_ptr failure;
  if (is_root()) {
    try {
      write();
    } catch (const std::exception&) {
      failure = std::current_exception();
    }
  }
  if (assembly::all_ranks_agree(failure == nullptr)) return;
  if (failure) std::rethrow_exception(failure);
  throw OutputError("rank 0 could not write its output");
}

std::string mode_directory(std::size_t k) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "mode_%02zu", k);
  return buf;
}

}  // namespace

LinearizedOutcome run_linearized_command(const RunOptions& options, fem::Model& model,
                                         const std::filesystem::path& out) {
  const bool buckling = model.analysis.type == fem::AnalysisType::Buckling;
  SummaryData summary;
  summary.model_name = model.name;
  describe_model(model, summary);
  // Read and checked before anything is written (the base model without its inertia elements yet,
  // as the perturbed ones are read).
  std::optional<std::vector<solvers::ParameterModels>> parameters;
  try {
    parameters = read_eigen_parameter_models(options, model);
  } catch (const std::exception& e) {
    return {exit_bad_input, dynamic_cast<const InputError*>(&e) || dynamic_cast<const SensitivityInputError*>(&e)
                                ? std::string(e.what())
                                : options.model.string() + ": " + e.what()};
  }
  try {
    elements::add_node_inertia(model);
    solvers::LinearizedAnalysis analysis(model, PETSC_COMM_WORLD);
    analysis.set_stop(&stop_requested());
    const assembly::Tableau& tableau = analysis.tableau();
    summary.n_unknowns = tableau.n_global();
    summary.n_nonzeros = tableau.n_nonzeros();
    summary.mpi_ranks = assembly::PetscSession::size();
    summary.rows_per_rank = tableau.rows_per_rank();
    if (is_root() && !options.quiet)
      std::cerr << "catena: " << model.name << ": " << (buckling ? "buckling" : "eigen") << " analysis, "
                << tableau.n_global() << " unknowns; output in " << out.string() << '\n';
    analysis.stop_if_requested("before the analysis began");
    analysis.establish_state();
    analysis.stop_if_requested("after the equilibrium it is linearized about");
    if (!buckling) {
      analysis.linearize();
      if (!parameters->empty() && analysis.quadratic())
        return {exit_bad_input,
                "catena: --sensitivity: the linearized problem is quadratic (D ≠ 0: joint dampers, a turning frame's "
                "Coriolis terms or spinning bodies' gyroscopic terms); eigenvalue sensitivities are computed for "
                "K φ = ω² M φ only (docs/sensitivity.md)"};
    }
    const solvers::EnergyRecord energy = analysis.energy();
    // The linearization state, which the modes are drawn about (the buckling path moves the
    // analysis's states on from it).
    const std::vector<fem::NodeState> states(analysis.states().begin(), analysis.states().end());
    write_on_root([&] {
      write_running_summary(out / "summary.json", summary, this_process());  // as `run` does
      // As any run writes its frames.
      VtkWriter vtk(out, model);
      CsvWriter csv(out, model);
      const solvers::Frame frame{0.0, 0, &model, states, energy};
      vtk.on_frame(frame);
      csv.on_frame(frame);
    });
    if (!buckling) {
      if (model.analysis.linearized.export_matrices) {
        assembly::write_matrix_market(analysis.stiffness(), out / "K.mtx", tableau.comm());
        assembly::write_matrix_market(analysis.damping(), out / "D.mtx", tableau.comm());
        assembly::write_matrix_market(analysis.mass(), out / "M.mtx", tableau.comm());
      }
      const solvers::EigenResult r = analysis.modes(!parameters->empty());
      if (!parameters->empty()) {
        const auto dmu = solvers::eigenvalue_derivatives(analysis, r, *parameters);
        write_on_root([&] {
          replace_file_atomically(out / "mode_sensitivities.csv", mode_sensitivities_csv(r, *parameters, dmu));
        });
      }
      write_on_root([&] {
        std::ostringstream csv;  // written whole, atomically (io/output_directory.hpp)
        csv << "mode,frequency_hz,natural_frequency_hz,damping_ratio,s_real,s_imag,kind\n";
        csv.precision(17);
        if (!options.quiet) std::cout << "mode  frequency [Hz]  damping ratio  kind\n";
        for (std::size_t k = 0; k < r.modes.size(); ++k) {
          solvers::Mode m = r.modes[k];
          if (m.kind == solvers::ModeKind::Rigid) m.s = 0.0;  // round-off
          const double f = m.damped_frequency() / (2.0 * std::numbers::pi);
          csv << k + 1 << ',' << f << ',' << m.natural_frequency() / (2.0 * std::numbers::pi) << ','
              << m.damping_ratio() << ',' << m.s.real() << ',' << m.s.imag() << ',' << kind_name(m.kind) << '\n';
          if (!options.quiet) {
            char line[96];
            std::snprintf(line, sizeof line, "%4zu  %14.8g  %13.6g  %s\n", k + 1, f, m.damping_ratio(), kind_name(m.kind));
            std::cout << line;
          }
          summary.extra.emplace_back("mode_" + std::to_string(k + 1) + "_frequency_hz", f);
          write_mode_series(model, tableau, states, m.shape, m.shape_imag,
                            out / "modes" / mode_directory(k + 1));
        }
        replace_file_atomically(out / "modes.csv", csv.str());
      });
    } else {
      const solvers::BucklingResult r = analysis.buckling(!parameters->empty());
      if (!parameters->empty()) {
        const std::vector<double> d = solvers::critical_factor_derivatives(analysis, r, *parameters);
        write_on_root([&] {
          replace_file_atomically(out / "buckling_sensitivities.csv", buckling_sensitivities_csv(*parameters, d));
        });
      }
      summary.extra.emplace_back("preload", r.preload);
      summary.extra.emplace_back("critical_load_factor_linear", r.linear_factor);
      summary.extra.emplace_back("critical_load_factor_tracked", r.tracked_factor);
      write_on_root([&] {
        std::ostringstream csv;
        csv.precision(17);
        csv << "load_factor,lowest_stiffness_eigenvalue\n";
        for (const solvers::BucklingPoint& p : r.path) csv << p.load_factor << ',' << p.lowest << '\n';
        replace_file_atomically(out / "buckling.csv", csv.str());
        if (!r.linear_shape.empty())
          write_mode_series(model, tableau, states, r.linear_shape, {}, out / "modes" / "buckling_mode");
        if (!options.quiet)
          std::cout << "critical load factor: " << r.linear_factor << " (linear buckling about load factor "
                    << r.preload << "), " << r.tracked_factor << " (lowest eigenvalue tracked along the path)\n";
      });
    }
    summary.status = "completed";
    summary.counters.newton_iterations = analysis.counters().newton_iterations;
  } catch (const solvers::Interrupted& e) {
    // SIGINT or SIGTERM (io/stop_signals.hpp): what was written stays, summary.json says so.
    const int sig = agreed_stop_signal(PETSC_COMM_WORLD);
    summary.status = "interrupted";
    summary.message = std::string("stopped by ") + signal_name(sig) + " (" + e.what() + "); the " +
                      (buckling ? "buckling" : "eigen") + " analysis is not complete";
    return {128 + sig, failure_message(summary, out)};
  } catch (const std::exception& e) {
    const bool output = dynamic_cast<const OutputError*>(&e) != nullptr;
    summary.status = "failed";
    summary.message = (output ? "output failed: " : "") + std::string(e.what());
    return {output ? exit_output_failure : exit_solver_failure, failure_message(summary, out)};
  }
  if (std::string unwritten = write_summary_or_message(out / "summary.json", summary); !unwritten.empty())
    return {exit_output_failure, std::move(unwritten)};
  return {};
}

}  // namespace catena::io
