#include "solvers/linearized_analysis.hpp"

#include "solvers/solver_failure.hpp"

#include <slepceps.h>
#include <slepcpep.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

namespace catena::solvers {

using assembly::check;

namespace {

using EpsHandle = assembly::Handle<EPS, EPSDestroy>;
using PepHandle = assembly::Handle<PEP, PEPDestroy>;

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

PetscErrorCode finalize_slepc() { return SlepcFinalize(); }

/// SLEPc starts on top of the running PETSc the first time a linearized analysis is built and
/// stops within PetscFinalize: a time integration never starts it.
void start_slepc() {
  PetscBool started = PETSC_FALSE;
  check(SlepcInitialized(&started), "SlepcInitialized");
  if (started) return;
  check(SlepcInitializeNoArguments(), "SlepcInitializeNoArguments");
  check(PetscRegisterFinalize(finalize_slepc), "PetscRegisterFinalize");
}

/// Shift-and-invert with a sparse LU of the model's linear solver.
void configure_shift_invert(ST st, const std::string& linear_solver, const assembly::Tableau& t) {
  int ranks = 1;
  MPI_Comm_size(t.comm(), &ranks);
  check(STSetType(st, STSINVERT), "STSetType");
  KSP ksp = nullptr;
  check(STGetKSP(st, &ksp), "STGetKSP");
  configure_direct_solve(ksp, solver_package(linear_solver, ranks));
}

using Pair = LinearizedAnalysis::Pair;

/// An eigensolver monitor that ends the iterations when a stop is asked for on any rank (every
/// rank calls it at each iteration, so they agree): it returns an error, which ends EPSSolve.
struct StopMonitor {
  const std::atomic<bool>* stop = nullptr;
  MPI_Comm comm = MPI_COMM_NULL;
  bool fired = false;
};

PetscErrorCode stop_monitor(EPS, PetscInt, PetscInt, PetscScalar*, PetscScalar*, PetscReal*, PetscInt, void* context) {
  auto* m = static_cast<StopMonitor*>(context);
  int local = m->stop->load() ? 1 : 0, any = 0;
  MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, m->comm);
  if (any == 0) return 0;
  m->fired = true;
  return PETSC_ERR_USER;
}

/// The generalized problem A φ = μ B φ: `nev` eigenpairs nearest `target` (μ, real parts of φ).
/// `whole`: every converged pair, not only the first `nev`, each with its whole (complex) vector
/// in Pair::right. `stop` (may be null): StopMonitor.
std::vector<Pair> generalized_eigenpairs(assembly::Tableau& t, Mat A, Mat B, double target, int nev,
                                         const std::string& linear_solver, bool whole,
                                         const std::atomic<bool>* stop) {
  EpsHandle eps;
  check(EPSCreate(t.comm(), eps.out()), "EPSCreate");
  check(EPSSetOperators(eps, A, B), "EPSSetOperators");
  check(EPSSetProblemType(eps, EPS_GNHEP), "EPSSetProblemType");
  check(EPSSetDimensions(eps, nev, PETSC_DEFAULT, PETSC_DEFAULT), "EPSSetDimensions");
  check(EPSSetTarget(eps, target), "EPSSetTarget");
  check(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE), "EPSSetWhichEigenpairs");
  check(EPSSetTolerances(eps, 1e-12, 500), "EPSSetTolerances");
  ST st = nullptr;
  check(EPSGetST(eps, &st), "EPSGetST");
  configure_shift_invert(st, linear_solver, t);
  check(EPSSetFromOptions(eps), "EPSSetFromOptions");  // -eps_... options after `--`
  StopMonitor monitor{stop, t.comm()};
  if (stop) check(EPSMonitorSet(eps, stop_monitor, &monitor, nullptr), "EPSMonitorSet");
  const PetscErrorCode solved = assembly::quietly([&] { return EPSSolve(eps); });
  if (monitor.fired) throw Interrupted("stopped during the eigensolver's iterations");
  check(solved, "EPSSolve");
  PetscInt n = 0;
  check(EPSGetConverged(eps, &n), "EPSGetConverged");
  std::vector<Pair> out;
  const assembly::VecHandle xr = t.create_vector(), xi = t.create_vector();
  // A complex vector x = re + i im, gathered whole.
  auto gather_complex = [&t](Vec re, Vec im) {
    std::vector<double> a, b;
    t.gather_all(re, a);
    t.gather_all(im, b);
    std::vector<std::complex<double>> x(a.size());
    for (std::size_t j = 0; j < a.size(); ++j) x[j] = {a[j], b[j]};
    return x;
  };
  for (PetscInt i = 0; i < (whole ? n : std::min<PetscInt>(n, nev)); ++i) {
    PetscScalar kr = 0.0, ki = 0.0;
    check(EPSGetEigenpair(eps, i, &kr, &ki, xr, xi), "EPSGetEigenpair");
    Pair p{{kr, ki}, {}, {}, {}, {}};
    t.gather_all(xr, p.vector);
    if (whole) p.right = gather_complex(xr, xi);
    out.push_back(std::move(p));
  }
  return out;
}

/// The node that moves most in an eigenvector (re, im: its real and imaginary parts, im empty for
/// a real one), among the displacement blocks or the rotation blocks (times `scale`).
struct LargestMotion {
  double size = 0.0;   ///< its largest displacement over a period of Im(φ e^{iθ}), times `scale`
  std::size_t at = 0;  ///< global index of that node's largest component (by modulus)
};

LargestMotion largest_motion(const fem::Model& model, const fem::DofMap& map, bool rotation, double scale,
                             const std::vector<double>& re, const std::vector<double>& im) {
  LargestMotion out;
  for (const fem::Node& node : model.nodes) {
    const fem::BlockId b = rotation ? node.rotation : node.displacement;
    if (!b.valid()) continue;
    double aa = 0.0, bb = 0.0, ab = 0.0, top = 0.0;
    std::size_t top_at = 0;
    for (const fem::Dof d : map.dofs(b)) {
      if (d == fem::fixed_dof) continue;
      const auto j = static_cast<std::size_t>(d);
      const double x = re[j], y = im.empty() ? 0.0 : im[j];
      aa += x * x;
      bb += y * y;
      ab += x * y;
      if (const double modulus = im.empty() ? std::abs(x) : std::hypot(x, y); modulus > top) {
        top = modulus;
        top_at = j;
      }
    }
    // The node draws the ellipse sin θ a + cos θ b: its larger semi-axis is the root of the larger
    // eigenvalue of the Gram matrix [[a·a, a·b], [a·b, b·b]] (|a| for a real vector).
    const double semi_axis = std::sqrt(im.empty() ? aa : 0.5 * (aa + bb) + std::hypot(0.5 * (aa - bb), ab));
    if (semi_axis * scale > out.size) out = {semi_axis * scale, top_at};
  }
  return out;
}

/// Scales an eigenvector, and turns the phase of a complex one, as Mode::shape says: the largest
/// motion of a node is 1 (m; rad times the model's size for a mode of rotations), that node's
/// largest component real and positive.
void normalize_shape(const fem::Model& model, const fem::DofMap& map, Pair& p) {
  LargestMotion largest = largest_motion(model, map, false, 1.0, p.vector, p.imag);
  // A mode of rotations: a shaft's torsion, whose displacements are round-off, or in a turning frame
  // a few 1e-6 of its rotations times the model's size (Coriolis coupling). Scaled by those
  // displacements it would be drawn turning by thousands of radians. A bending mode's displacements
  // are above 1e-3 of its rotations times the model's size up to its 300th mode or so.
  if (const LargestMotion r = largest_motion(model, map, true, model.length_scale, p.vector, p.imag);
      largest.size <= 1e-3 * r.size)
    largest = r;
  if (!(largest.size > 0.0)) return;
  if (p.imag.empty()) {
    const double factor = (p.vector[largest.at] < 0.0 ? -1.0 : 1.0) / largest.size;
    for (double& x : p.vector) x *= factor;
    return;
  }
  const std::complex<double> top(p.vector[largest.at], p.imag[largest.at]);
  const std::complex<double> factor = std::conj(top) / (std::abs(top) * largest.size);
  for (std::size_t j = 0; j < p.vector.size(); ++j) {
    const std::complex<double> x = factor * std::complex<double>(p.vector[j], p.imag[j]);
    p.vector[j] = x.real();
    p.imag[j] = x.imag();
  }
}

/// s from μ = ω² (s² = −μ): the root with Im s > 0, or the non-negative real one.
std::complex<double> root_of_square(std::complex<double> mu) {
  const std::complex<double> s = std::complex<double>(0.0, 1.0) * std::sqrt(mu);
  if (std::abs(s.imag()) > 1e-12 * std::abs(s)) return s.imag() > 0.0 ? s : -s;
  return {std::abs(s.real()), 0.0};
}

/// δ of the linear buckling problem's difference about the preload p.
double buckling_step(double p) { return 1e-2 * std::max(1.0, std::abs(p)); }

}  // namespace

LinearizedAnalysis::LinearizedAnalysis(fem::Model& model, MPI_Comm comm) : model_(&model) {
  start_slepc();
  tableau_ = std::make_unique<assembly::Tableau>(model, comm);
  newton_ = std::make_unique<Newton>(*tableau_, model.length_scale, newton_settings(model.analysis), counters_);
  state_ = std::make_unique<CommittedState>(model, *tableau_);
  equilibrium_ = std::make_unique<StaticEquilibrium>(model, *tableau_, *newton_, *state_, counters_);
  u_ = tableau_->create_vector();
  for (assembly::MatHandle* m : {&K_, &D_, &M_})
    check(MatDuplicate(tableau_->jacobian(), MAT_DO_NOT_COPY_VALUES, m->out()), "MatDuplicate");
}

LinearizedAnalysis::~LinearizedAnalysis() = default;

fem::StepState LinearizedAnalysis::static_context(double load_factor) const {
  fem::StepState s{fem::TimeElement::equilibrium(0.0, load_factor), model_->nodes, state_->states(), {}, nullptr};
  s.gravity = model_->gravity;
  return s;
}

void LinearizedAnalysis::establish_state() {
  equilibrium_->check_redundancy(u_);
  const fem::AnalysisSettings& a = model_->analysis;
  const double target = a.type == fem::AnalysisType::Buckling ? a.linearized.preload : 1.0;
  if (a.linearized.about_equilibrium && target != 0.0) equilibrium_->solve(u_, 0.0, target);
  load_factor_ = a.linearized.about_equilibrium ? target : 1.0;
}

void LinearizedAnalysis::linearize(double load_factor) {
  state_->linearization_point(u_);
  const fem::StepState s = static_context(load_factor);
  tableau_->assemble_jacobian(s, u_, K_);
  tableau_->assemble_rate_matrices(s, u_, M_, D_);
}

EigenResult LinearizedAnalysis::modes(bool two_sided) const { return modes(M_, true, two_sided); }

bool LinearizedAnalysis::quadratic() const {
  PetscReal damping_norm = 0.0;
  check(MatNorm(D_, NORM_INFINITY, &damping_norm), "MatNorm");
  return damping_norm > 0.0;
}

EigenResult LinearizedAnalysis::modes(Mat M, bool with_damping, bool two_sided) const {
  const fem::LinearizedSettings& a = model_->analysis.linearized;
  EigenResult result;

  // Characteristic ω² of the model: the largest K_ii / M_ii (about its highest frequency).
  const assembly::VecHandle dk = tableau_->create_vector(), dm = tableau_->create_vector();
  check(MatGetDiagonal(K_, dk), "MatGetDiagonal");
  check(MatGetDiagonal(M, dm), "MatGetDiagonal");
  double local[2] = {0.0, 0.0}, global[2] = {0.0, 0.0};  // the largest K_ii / M_ii and M_ii
  {
    const PetscScalar *k = nullptr, *m = nullptr;
    check(VecGetArrayRead(dk, &k), "VecGetArrayRead");
    check(VecGetArrayRead(dm, &m), "VecGetArrayRead");
    for (PetscInt i = 0; i < tableau_->n_owned(); ++i)
      if (m[i] > 0.0) {
        local[0] = std::max(local[0], std::abs(k[i]) / m[i]);
        local[1] = std::max(local[1], m[i]);
      }
    check(VecRestoreArrayRead(dk, &k), "VecRestoreArrayRead");
    check(VecRestoreArrayRead(dm, &m), "VecRestoreArrayRead");
  }
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, tableau_->comm());
  if (!(global[1] > 0.0))
    throw SolverFailure("eigen-analysis: the model has no inertia (give masses or densities)", 0.0);
  const double omega2 = global[0];
  // Inertia, but no stiffness on the rows that carry it: the springs act only through joints' own
  // unknowns (two free bodies on a spring hinge), or there are none. The scale of the spectrum,
  // which sets the shift and the filters below, is then unknown: estimating it from ‖K‖ / m was
  // tried and dropped (two bodies on a hinge of stiffness 1e4: the elastic mode 2 % off).
  if (!(omega2 > 0.0))
    throw SolverFailure("eigen-analysis: no stiffness acts on the nodes that carry inertia (springs only "
                        "through joints' own unknowns, or none at all), so the scale of the spectrum is unknown; "
                        "support a node or add a stiff element to a node with mass",
                        0.0);
  result.quadratic = with_damping && quadratic();
  if (two_sided && result.quadratic)
    throw SolverFailure("eigen-analysis: left eigenvectors of a quadratic problem (D ≠ 0) are not computed", 0.0);
  // Rows without inertia (constraints, multipliers) give infinite eigenvalues, in Jordan chains
  // whose rounding leaves values of any phase far above the model's spectrum (which lies below
  // about ω²_char): those are dropped.
  const double spurious = 1e2 * omega2;
  // The automatic shift: 1e-10 ω²_char below zero. It keeps K − σ M regular with rigid-body or
  // mechanism modes (a shift of zero would factor a singular K: MUMPS does not always say so,
  // and the modes come out polluted), and lies below the elastic modes of any but extremely fine
  // and slender models (a rod of 10⁴ elements shorter than its diameter).
  result.shift = a.shift > 0.0 ? a.shift : -1e-10 * omega2;
  std::vector<Pair> pairs;
  if (!result.quadratic) {
    std::vector<Pair> right =
        generalized_eigenpairs(*tableau_, K_, M, result.shift, a.modes, model_->analysis.linear_solver, two_sided, stop_);
    if (two_sided) attach_left_eigenvectors(K_, M, result.shift, a.modes, right);
    for (Pair& p : right) {
      if (std::abs(p.value) > spurious) continue;
      p.value = root_of_square(p.value);
      pairs.push_back(std::move(p));
    }
  } else {
    quadratic_eigenpairs(result.shift, omega2, spurious, pairs);
  }

  // Rigid and mechanism modes: |s|² below 1e-13 ω²_char, round-off of a zero eigenvalue. A model
  // whose spectrum spans more than that (ω_char/ω_1 > 3e6: a rod of 4000 elements, each shorter
  // than its diameter) is too ill-conditioned for its lowest modes anyway (their ω² come out a few
  // per cent off in double precision) and has them reported as rigid.
  const double rigid = std::sqrt(1e-13 * omega2);
  const fem::DofMap& map = tableau_->global_map();
  for (Pair& p : pairs) {
    Mode m;
    m.s = p.value;
    m.kind = std::abs(m.s) < rigid ? ModeKind::Rigid
             : (m.s.real() > 1e-9 * std::abs(m.s)) ? ModeKind::Unstable
                                                    : ModeKind::Elastic;
    normalize_shape(*model_, map, p);
    m.shape = std::move(p.vector);
    m.shape_imag = std::move(p.imag);
    m.mu = -(m.s * m.s);
    m.right = std::move(p.right);
    m.left = std::move(p.left);
    result.modes.push_back(std::move(m));
  }
  std::stable_sort(result.modes.begin(), result.modes.end(),
                   [](const Mode& x, const Mode& y) { return std::abs(x.s) < std::abs(y.s); });
  if (static_cast<int>(result.modes.size()) > a.modes) {
    for (std::size_t k = static_cast<std::size_t>(a.modes); k < result.modes.size(); ++k)
      if (two_sided) result.other_values.push_back(result.modes[k].mu);
    result.modes.resize(static_cast<std::size_t>(a.modes));
  }
  return result;
}

void LinearizedAnalysis::attach_left_eigenvectors(Mat A, Mat B, double target, int nev,
                                                  std::vector<Pair>& pairs) const {
  // SLEPc's two-sided Krylov-Schur (EPSSetTwoSided) fails in its LAPACK trevc call on repeated
  // eigenvalues next to a zero one (a pendulum's two swings and its free spin): the left vectors
  // come from the transposed pencil instead, Aᵀ y = μ Bᵀ y, i.e. ψ = ȳ with ψᴴ A = μ ψᴴ B.
  assembly::MatHandle At, Bt;
  check(MatTranspose(A, MAT_INITIAL_MATRIX, At.out()), "MatTranspose");
  check(MatTranspose(B, MAT_INITIAL_MATRIX, Bt.out()), "MatTranspose");
  std::vector<Pair> left =
      generalized_eigenpairs(*tableau_, At, Bt, target, nev, model_->analysis.linear_solver, true, stop_);
  // Each right pair takes the left one of the nearest eigenvalue not yet taken, within the
  // eigensolver's accuracy (so that each member of a cluster of repeated eigenvalues gets one of
  // the cluster's left vectors); none: Pair::left stays empty.
  std::vector<bool> taken(left.size(), false);
  for (Pair& p : pairs) {
    std::size_t best = left.size();
    for (std::size_t j = 0; j < left.size(); ++j)
      if (!taken[j] && std::abs(left[j].value - p.value) <= 1e-8 * std::max(std::abs(p.value), 1e-300) &&
          (best == left.size() || std::abs(left[j].value - p.value) < std::abs(left[best].value - p.value)))
        best = j;
    if (best == left.size()) continue;
    taken[best] = true;
    p.left = std::move(left[best].right);
    for (std::complex<double>& y : p.left) y = std::conj(y);
  }
}

void LinearizedAnalysis::quadratic_eigenpairs(double shift, double omega2, double spurious,
                                              std::vector<Pair>& pairs) const {
  // (K + s D + s² M) φ = 0 about the target √σ in s: the pair ±iω of each mode both converge;
  // keep Im s ≥ 0.
  const fem::LinearizedSettings& a = model_->analysis.linearized;
  PepHandle pep;
  check(PEPCreate(tableau_->comm(), pep.out()), "PEPCreate");
  Mat A[3] = {K_, D_, M_};
  check(PEPSetOperators(pep, 3, A), "PEPSetOperators");
  check(PEPSetProblemType(pep, PEP_GENERAL), "PEPSetProblemType");
  check(PEPSetDimensions(pep, 2 * a.modes, PETSC_DEFAULT, PETSC_DEFAULT), "PEPSetDimensions");
  check(PEPSetTarget(pep, shift < 0.0 ? -std::sqrt(-shift) : std::sqrt(shift)), "PEPSetTarget");
  check(PEPSetWhichEigenpairs(pep, PEP_TARGET_MAGNITUDE), "PEPSetWhichEigenpairs");
  check(PEPSetTolerances(pep, 1e-12, 500), "PEPSetTolerances");
  ST st = nullptr;
  check(PEPGetST(pep, &st), "PEPGetST");
  configure_shift_invert(st, model_->analysis.linear_solver, *tableau_);
  check(PEPSetFromOptions(pep), "PEPSetFromOptions");
  check(PEPSolve(pep), "PEPSolve");
  PetscInt n = 0;
  check(PEPGetConverged(pep, &n), "PEPGetConverged");
  const assembly::VecHandle xr = tableau_->create_vector(), xi = tableau_->create_vector();
  for (PetscInt i = 0; i < n; ++i) {
    PetscScalar kr = 0.0, ki = 0.0;
    check(PEPGetEigenpair(pep, i, &kr, &ki, xr, xi), "PEPGetEigenpair");
    const std::complex<double> s(kr, ki);
    if (std::norm(s) > spurious) continue;
    const bool real = std::abs(ki) <= 1e-12 * std::abs(s);
    if (ki < 0.0 && !real) continue;
    if (real && kr < 0.0 && std::norm(s) > 1e-13 * omega2) continue;  // keep the growing one of a real pair
    Pair p{real ? std::complex<double>(std::abs(kr), 0.0) : s, {}, {}, {}, {}};
    tableau_->gather_all(xr, p.vector);
    // The whole complex φ (SLEPc gives Im φ = 0 for ki = 0): its real part alone may even vanish.
    if (ki != 0.0) tableau_->gather_all(xi, p.imag);
    pairs.push_back(std::move(p));
  }
}

void LinearizedAnalysis::stop_if_requested(const char* where) const {
  if (!stop_) return;
  int local = stop_->load() ? 1 : 0, any = 0;
  MPI_Allreduce(&local, &any, 1, MPI_INT, MPI_MAX, tableau_->comm());
  if (any != 0) throw Interrupted(std::string("stopped ") + where);
}

double LinearizedAnalysis::lowest_eigenvalue(Mat metric) const {
  const EigenResult r = modes(metric, false);
  // Back to μ (s² = −μ): negative when the state is unstable. Near the critical load the lowest
  // passes through the rigid class: all of them count.
  double lowest = std::numeric_limits<double>::infinity();
  for (const Mode& m : r.modes) lowest = std::min(lowest, -(m.s * m.s).real());
  return lowest;
}

void LinearizedAnalysis::form_buckling_pencil() {
  // A = K(p), B = −K₁, K₁ = dK/dp by central differences of the equilibria at p ± δ: the
  // geometric stiffness is a small part of K (δ must be large enough for it to rise above the
  // round-off of K), and K(p) bends away from linear in p where the pre-buckling state rotates (a
  // twisted shaft), which a one-sided difference would see.
  const double p = load_factor_;
  const double delta = buckling_step(p);
  linearize(p);
  check(MatDuplicate(K_, MAT_COPY_VALUES, buckling_A_.out()), "MatDuplicate");
  equilibrium_->solve(u_, p, p - delta);
  linearize(p - delta);
  check(MatDuplicate(K_, MAT_COPY_VALUES, buckling_B_.out()), "MatDuplicate");
  equilibrium_->solve(u_, p - delta, p + delta);
  linearize(p + delta);
  check(MatAXPY(buckling_B_, -1.0, K_, SAME_NONZERO_PATTERN), "MatAXPY");  // K(p − δ) − K(p + δ)
  check(MatScale(buckling_B_, 0.5 / delta), "MatScale");
}

BucklingResult LinearizedAnalysis::buckling(bool two_sided) {
  const fem::LinearizedSettings& a = model_->analysis.linearized;
  BucklingResult out;
  out.preload = load_factor_;

  // Linear buckling about the preload p: (K(p) + Λ K₁) φ = 0, i.e. A φ = Λ B φ.
  const double p = load_factor_;
  const double delta = buckling_step(p);
  form_buckling_pencil();
  const int nev = std::max(4, a.modes);
  std::vector<Pair> pairs = generalized_eigenpairs(*tableau_, buckling_A_, buckling_B_, 0.0, nev,
                                                   model_->analysis.linear_solver, two_sided, stop_);
  if (two_sided) attach_left_eigenvectors(buckling_A_, buckling_B_, 0.0, nev, pairs);
  out.linear_factor = nan;
  std::size_t critical = pairs.size();
  // The critical one among the first `nev` (a two-sided solve has all converged pairs).
  for (std::size_t i = 0; i < std::min(pairs.size(), static_cast<std::size_t>(nev)); ++i) {
    const Pair& pair = pairs[i];
    const double lambda = pair.value.real();
    if (std::abs(pair.value.imag()) > 1e-9 * std::abs(lambda) || !(lambda > 0.0)) continue;
    if (std::isnan(out.linear_factor) || lambda < out.linear_factor - p) {
      out.linear_factor = p + lambda;
      out.linear_shape = pair.vector;
      critical = i;
    }
  }
  if (!out.linear_shape.empty()) {
    // Scaled as the eigen modes are, so that its frames move by analysis.mode_amplitude (the
    // eigensolver's own scale drew buckling-torsion's mode turning by 3 rad).
    Pair shape{0.0, std::move(out.linear_shape), {}, {}, {}};
    normalize_shape(*model_, tableau_->global_map(), shape);
    out.linear_shape = std::move(shape.vector);
  }
  if (two_sided) {
    out.linear_index = critical;
    for (Pair& pair : pairs) {
      Mode m;
      m.mu = pair.value;
      m.right = std::move(pair.right);
      m.left = std::move(pair.left);
      out.linear_pairs.modes.push_back(std::move(m));
    }
  }

  // Tracking, from p + δ where the states are: the lowest eigenvalue of K φ = μ B φ along the
  // path in equal increments, with B = I on displacement rows and L² I on rotation rows (L: the
  // model's size; zero on other rows): K's stiffness in N/m, defined with or without inertia.
  assembly::MatHandle metric;
  check(MatDuplicate(K_, MAT_DO_NOT_COPY_VALUES, metric.out()), "MatDuplicate");
  {
    const assembly::VecHandle diagonal = tableau_->create_vector();
    PetscScalar* d = nullptr;
    check(VecGetArray(diagonal, &d), "VecGetArray");
    const double L2 = model_->length_scale * model_->length_scale;
    for (PetscInt i = 0; i < tableau_->n_owned(); ++i) {
      const fem::UnknownKind kind = tableau_->row_kind(tableau_->first_owned() + i);
      d[i] = kind == fem::UnknownKind::Displacement ? 1.0 : kind == fem::UnknownKind::Rotation ? L2 : 0.0;
    }
    check(VecRestoreArray(diagonal, &d), "VecRestoreArray");
    check(MatZeroEntries(metric), "MatZeroEntries");
    check(MatDiagonalSet(metric, diagonal, INSERT_VALUES), "MatDiagonalSet");
  }
  double at = p + delta;
  auto lowest_at = [&](double factor) {
    equilibrium_->solve(u_, at, factor);
    at = factor;
    linearize(factor);
    return lowest_eigenvalue(metric);
  };
  out.tracked_factor = nan;
  const double step = (a.load_factor_max - p) / a.increments;
  BucklingPoint previous{p + delta, lowest_at(p + delta)};
  if (!(previous.lowest > 0.0) || std::isinf(previous.lowest))
    throw SolverFailure("buckling: the structure is not stable at the preload (its stiffness has a zero or "
                        "negative eigenvalue: rigid-body or mechanism modes, or a preload beyond the critical one); "
                        "support it, or lower the preload", 0.0);
  out.path.push_back(previous);
  for (int k = 1; k <= a.increments; ++k) {
    stop_if_requested("between the load increments of the buckling path");
    BucklingPoint next{p + k * step, 0.0};
    try {
      next.lowest = lowest_at(next.load_factor);
    } catch (const SolverFailure&) {
      break;  // no equilibrium beyond here: the path ends (a limit point)
    }
    out.path.push_back(next);
    if (previous.lowest > 0.0 && next.lowest <= 0.0) {
      // Secant steps on the lowest eigenvalue as a function of the load factor.
      BucklingPoint lo = previous, hi = next;
      double estimate = hi.load_factor;
      for (int it = 0; it < 8; ++it) {
        estimate = lo.load_factor - lo.lowest * (hi.load_factor - lo.load_factor) / (hi.lowest - lo.lowest);
        const BucklingPoint mid{estimate, lowest_at(estimate)};
        if (std::abs(mid.lowest) <= 1e-10 * std::max(std::abs(lo.lowest), std::abs(hi.lowest))) break;
        (mid.lowest > 0.0 ? lo : hi) = mid;
        if (std::abs(hi.load_factor - lo.load_factor) < 1e-10 * std::abs(estimate)) break;
      }
      out.tracked_factor = estimate;
      break;
    }
    previous = next;
  }
  return out;
}

}  // namespace catena::solvers
