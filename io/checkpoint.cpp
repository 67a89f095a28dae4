#include "io/checkpoint.hpp"

#include "io/model/size_budget.hpp"
#include "io/output_directory.hpp"
#include "io/stable_hash.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <type_traits>
#include <vector>

namespace catena::io {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view magic = "catena-checkpoint";
// 2: linear solves among the counters, the kept Jacobian, VTK frames apart from rows;
// 3: the nodes' axes at the kept Jacobian's iterate, its aging
// 4: whether LU without pivoting failed earlier in the run (lu_pivoting)
// 5, 6: the objective, the sensitivities
// 7: a checksum of the whole text; the fingerprint covers the model file's document
constexpr int format_version = 8;

/// `value` in hexadecimal floating point ("1.8p+1"): exact, locale-free.
std::string hex(double value) {
  std::array<char, 40> buffer{};
  const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::hex);
  if (ec != std::errc()) throw std::logic_error("checkpoint: buffer too small for a double");
  return {buffer.data(), end};
}

std::string hex64(std::uint64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(v));
  return buffer;
}

/// Reads whitespace-separated tokens of a checkpoint, failing with the file name.
class Reader {
 public:
  Reader(const fs::path& file, std::istream& in, std::uintmax_t bytes) : file_(file), in_(in), bytes_(bytes) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw CheckpointError(file_.string() + ": not a readable Catena checkpoint: " + what);
  }
  std::string word(std::string_view what) {
    std::string w;
    if (!(in_ >> w)) fail("it ends before " + std::string(what) + " (truncated?)");
    return w;
  }
  void keyword(std::string_view expected) {
    const std::string w = word(expected);
    if (w != expected) fail("expected '" + std::string(expected) + "', found '" + w + "'");
  }
  double real(std::string_view what) {
    const std::string w = word(what);
    double v = 0.0;
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v, std::chars_format::hex);
    if (ec != std::errc() || end != w.data() + w.size()) fail(std::string(what) + ": malformed number '" + w + "'");
    return v;
  }
  long integer(std::string_view what) {
    const std::string w = word(what);
    long v = 0;
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || end != w.data() + w.size()) fail(std::string(what) + ": malformed integer '" + w + "'");
    return v;
  }
  /// A count of things that take at least `bytes_each` bytes each: one the file cannot hold is
  /// refused before anything is allocated for it (a count of 10^12 nodes ended in bad_alloc).
  long count(std::string_view what, long bytes_each) {
    const long n = integer(what);
    if (n < 0 || static_cast<double>(n) * static_cast<double>(bytes_each) > static_cast<double>(bytes_))
      fail(std::string(what) + " " + std::to_string(n) + ": more than the file's " + std::to_string(bytes_) +
           " bytes can hold");
    return n;
  }
  /// `key value`: the value after its keyword.
  long keyed_integer(std::string_view key) {
    keyword(key);
    return integer(key);
  }
  double keyed_real(std::string_view key) {
    keyword(key);
    return real(key);
  }
  std::string rest_of_line() {
    std::string line;
    std::getline(in_, line);
    if (!line.empty() && line.front() == ' ') line.erase(0, 1);
    return line;
  }
  template <class V>
  void reals(V& v, int n, std::string_view what) {
    for (int i = 0; i < n; ++i) v[i] = real(what);
  }

 private:
  const fs::path& file_;
  std::istream& in_;
  std::uintmax_t bytes_;
};

/// A counter of the `counters` line: integers in decimal, doubles in hexadecimal.
std::string counter_text(long value) { return std::to_string(value); }
std::string counter_text(double value) { return hex(value); }

void read_counter(Reader& r, std::string_view name, long& value) { value = r.integer(name); }
void read_counter(Reader& r, std::string_view name, double& value) { value = r.real(name); }

/// Calls `visit(field)` for the counters a checkpoint holds (solvers::Carry::Across), in the
/// list's order: they are numbers.
template <class Visitor>
void for_each_carried_counter(Visitor&& visit) {
  solvers::for_each_counter_field([&](const auto& field) {
    using Value = std::remove_cvref_t<decltype(solvers::RunCounters{}.*field.member)>;
    if constexpr (std::is_arithmetic_v<Value>)
      if (field.carry == solvers::Carry::Across) visit(field);
  });
}

}  // namespace

ModelFingerprint fingerprint(const fem::Model& model, long n_unknowns, std::string_view document) {
  std::string d = "model " + model.name + "\n";
  d += "document ";
  d += document;
  d += '\n';
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    const fem::Node& n = model.nodes[i];
    d += "node " + n.name + ' ' + std::to_string(static_cast<int>(n.kind));
    for (int c = 0; c < 3; ++c) d += ' ' + hex(n.reference_position[c]);
    if (i < model.initial_state.size()) {
      const fem::NodeState& s = model.initial_state[i];
      for (int c = 0; c < 3; ++c) d += ' ' + hex(s.position[c]) + ' ' + hex(s.velocity[c]) + ' ' +
                                       hex(s.angular_velocity[c]);
      for (const double q : {s.orientation.w(), s.orientation.x(), s.orientation.y(), s.orientation.z()})
        d += ' ' + hex(q);
    }
    d += '\n';
  }
  for (const auto& e : model.elements) d += "element " + e->name() + ' ' + std::string(e->kind()) + '\n';
  for (const fem::BlockInfo& b : model.registry.blocks()) {
    d += "block " + b.owner + ' ' + b.label + ' ' + std::to_string(static_cast<int>(b.kind)) + ' ' +
         std::to_string(b.size);
    for (int c = 0; c < b.size; ++c) d += b.fixed[static_cast<std::size_t>(c)] ? " F" : " f";
    d += '\n';
  }
  d += "gravity " + hex(model.gravity.x()) + ' ' + hex(model.gravity.y()) + ' ' + hex(model.gravity.z()) + '\n';
  d += "analysis " + std::to_string(static_cast<int>(model.analysis.type)) + ' ' +
       std::to_string(static_cast<int>(model.analysis.scheme)) + ' ' + hex(model.analysis.dt) + '\n';
  return ModelFingerprint{model.name, n_unknowns, static_cast<long>(model.nodes.size()),
                          static_cast<long>(model.elements.size()), fnv1a(d), model.analysis.dt};
}

std::string checkpoint_text(const Checkpoint& c) {
  const solvers::IntegratorState& s = c.state;
  std::ostringstream o;
  o << magic << ' ' << format_version << '\n'
    << "model " << c.model.model_name << '\n'
    << "fingerprint " << hex64(c.model.hash) << " unknowns " << c.model.unknowns << " nodes " << c.model.nodes
    << " elements " << c.model.elements << '\n'
    << "t " << hex(s.t) << " step " << s.step << " h " << hex(s.h) << " successes " << s.successes << '\n'
    << "frames " << s.written.frames << " last_frame_step " << s.written.last_frame_step << " last_frame_t "
    << hex(s.written.last_frame_t) << " vtk_frames " << s.written.vtk_frames << " last_vtk_frame_step "
    << s.written.last_vtk_frame_step << " last_vtk_frame_t " << hex(s.written.last_vtk_frame_t)
    << " balance0 " << hex(s.balance0) << '\n'
    << "work " << hex(s.work.external_work) << ' ' << hex(s.work.dissipated) << '\n'
    << "counters";
  for_each_carried_counter([&](const auto& field) { o << ' ' << counter_text(s.counters.*field.member); });
  o << '\n'
    << "increments " << s.last_increment.size() << ' ' << hex(s.last_increment_h) << '\n';
  for (const auto& inc : s.last_increment) {
    for (int k = 0; k < 6; ++k) o << (k ? " " : "") << hex(inc[k]);
    o << '\n';
  }
  for (std::size_t i = 0; i < s.states.size(); ++i) {
    const fem::NodeState& n = s.states[i];
    o << "node " << i;
    for (int k = 0; k < 3; ++k) o << ' ' << hex(n.position[k]);
    for (int k = 0; k < 3; ++k) o << ' ' << hex(n.velocity[k]);
    for (const double q : {n.orientation.w(), n.orientation.x(), n.orientation.y(), n.orientation.z()})
      o << ' ' << hex(q);
    for (int k = 0; k < 3; ++k) o << ' ' << hex(n.angular_velocity[k]);
    o << '\n';
  }
  for (std::size_t i = 0; i < s.element_history.size(); ++i) {
    o << "element " << i << ' ' << s.element_history[i].size();
    for (const double v : s.element_history[i]) o << ' ' << hex(v);
    o << '\n';
  }
  // The Newton Jacobian kept across steps, as the matrix's values (factored again on restart).
  const solvers::KeptJacobian& j = s.kept_jacobian;
  o << "jacobian " << (j.valid ? 1 : 0) << ' ' << j.fresh_starts << ' ' << j.backoff << ' ' << j.baseline << ' '
    << j.excess << ' ' << hex(j.h) << ' '
    << static_cast<int>(j.scheme) << ' ' << j.ranks << ' ' << j.values.size() << '\n';
  for (std::size_t i = 0; i < j.values.size(); ++i) o << hex(j.values[i]) << ((i + 1) % 8 == 0 ? '\n' : ' ');
  if (j.values.size() % 8 != 0) o << '\n';
  // The nodes' axes where it was evaluated: chord corrections turn it with them since.
  o << "axes " << j.axes.size() << '\n';
  for (std::size_t i = 0; i < j.axes.size(); ++i) o << hex(j.axes[i]) << ((i + 1) % 9 == 0 ? '\n' : ' ');
  if (j.axes.size() % 9 != 0) o << '\n';
  // Whether LU without pivoting failed earlier in the run (SuperLU since).
  o << "lu_pivoting " << (j.pivoting_lu ? 1 : 0) << '\n';
  o << "objective " << hex(s.objective) << ' ' << hex(s.objective_integrand) << '\n';
  // With --sensitivity, the state's derivatives (solvers::DirectSensitivity::save).
  o << "sensitivity " << s.sensitivity_parameters.size();
  for (const std::string& p : s.sensitivity_parameters) o << ' ' << p;
  o << ' ' << s.sensitivity.size() << '\n';
  for (std::size_t i = 0; i < s.sensitivity.size(); ++i) o << hex(s.sensitivity[i]) << ((i + 1) % 8 == 0 ? '\n' : ' ');
  if (s.sensitivity.size() % 8 != 0) o << '\n';
  // The named inputs a program set (format 8 on).
  o << "inputs " << s.inputs.size();
  for (const double v : s.inputs) o << ' ' << hex(v);
  o << '\n';
  // A checksum of everything above: a changed digit anywhere is refused, never continued from.
  const std::string body = o.str();
  return body + "checksum " + hex64(fnv1a(body)) + "\nend\n";
}

void write_checkpoint(const fs::path& file, const Checkpoint& checkpoint) {
  replace_file_atomically(file, checkpoint_text(checkpoint));
}

namespace {

/// The values a run can have: a checkpoint whose checksum holds but whose numbers no run writes
/// (a negative step, a NaN time, a non-unit quaternion: edited by hand and the checksum redone)
/// is refused too.
void check_plausible(const Checkpoint& c, const Reader& r) {
  const solvers::IntegratorState& s = c.state;
  const auto finite = [](double v) { return std::isfinite(v); };
  if (!finite(s.t) || s.t < 0.0) r.fail("t = " + std::to_string(s.t) + ": a time must be finite and not negative");
  if (s.step < 1) r.fail("step " + std::to_string(s.step) + ": checkpoints are written after a step, from step 1");
  if (!finite(s.h) || s.h <= 0.0) r.fail("h = " + std::to_string(s.h) + ": the step size must be finite and positive");
  if (s.successes < 0) r.fail("a negative count of successes");
  if (!std::all_of(s.inputs.begin(), s.inputs.end(), finite)) r.fail("an input's value is not finite");
  const solvers::FramesWritten& w = s.written;
  if (w.frames < 1 || w.vtk_frames < 1 || w.last_frame_step < 0 || w.last_frame_step > s.step ||
      w.last_vtk_frame_step < 0 || w.last_vtk_frame_step > s.step || !finite(w.last_frame_t) ||
      !finite(w.last_vtk_frame_t) || w.last_frame_t > s.t || w.last_vtk_frame_t > s.t)
    r.fail("the counts of rows and frames written do not fit step " + std::to_string(s.step) + " at t = " +
           std::to_string(s.t));
  if (s.counters.steps < s.step)
    r.fail(std::to_string(s.counters.steps) + " time elements for " + std::to_string(s.step) + " nominal steps");
  if (!finite(s.balance0) || !finite(s.work.external_work) || !finite(s.work.dissipated) || !finite(s.objective))
    r.fail("a balance, work or objective that is not finite");
  for (std::size_t i = 0; i < s.states.size(); ++i) {
    const fem::NodeState& n = s.states[i];
    const fem::Quaternion& q = n.orientation;
    if (!n.position.allFinite() || !n.velocity.allFinite() || !n.angular_velocity.allFinite() ||
        !q.coeffs().allFinite() || std::abs(q.norm() - 1.0) > 1e-9)
      r.fail("node " + std::to_string(i) + ": a state that is not finite or an orientation that is not a unit "
             "quaternion");
  }
}

}  // namespace

Checkpoint read_checkpoint(const fs::path& file) {
  // A regular file only: /dev/zero was read until the kernel killed the run at 24 GB, and a FIFO
  // without a writer waits forever.
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    throw CheckpointError(file.string() + (fs::exists(file, ec) ? ": expected a checkpoint file; found " +
                                                                      std::string(fs::is_directory(file, ec)
                                                                                      ? "a directory"
                                                                                      : "a device, FIFO or socket")
                                                                : ": cannot open the checkpoint: no such file"));
  const std::uintmax_t bytes = fs::file_size(file, ec);
  if (ec) throw CheckpointError(file.string() + ": cannot open the checkpoint: " + ec.message());
  // Its text is held whole for the checksum: a file larger than the memory a run may use is no
  // checkpoint this machine can continue from.
  if (const reader::MemoryLimit limit = reader::memory_limit(); static_cast<double>(bytes) > 0.5 * limit.bytes)
    throw CheckpointError(file.string() + ": " + reader::format_bytes(static_cast<double>(bytes)) +
                          ", more than half the memory limit (" + limit.described +
                          "); not a checkpoint this run can read");
  std::ifstream file_in(file, std::ios::binary);
  if (!file_in) throw CheckpointError(file.string() + ": cannot open the checkpoint");
  const std::string text{std::istreambuf_iterator<char>(file_in), std::istreambuf_iterator<char>()};
  // The checksum line and `end` close the file; the checksum covers everything before them.
  const std::size_t at = text.rfind("\nchecksum ");
  std::istringstream in(at == std::string::npos ? text : text.substr(0, at + 1));
  Reader r(file, in, bytes);
  Checkpoint c;
  solvers::IntegratorState& s = c.state;
  if (r.word("the header") != magic) r.fail("it does not start with '" + std::string(magic) + "'");
  // Version 7 is version 8 without the inputs' line.
  const long version = r.integer("the format version");
  if (version != format_version && version != 7)
    r.fail("format version " + std::to_string(version) + ", this catena reads versions 7 and " +
           std::to_string(format_version));
  r.keyword("model");
  c.model.model_name = r.rest_of_line();
  r.keyword("fingerprint");
  const std::string h = r.word("the fingerprint");
  std::uint64_t hash = 0;
  if (const auto [end, ec] = std::from_chars(h.data(), h.data() + h.size(), hash, 16);
      ec != std::errc() || end != h.data() + h.size())
    r.fail("malformed fingerprint '" + h + "'");
  c.model.hash = hash;
  c.model.unknowns = r.keyed_integer("unknowns");
  // A node's line holds 17 numbers, an element's 3 at least: two bytes each, digit and separator.
  r.keyword("nodes");
  c.model.nodes = r.count("nodes", 34);
  r.keyword("elements");
  c.model.elements = r.count("elements", 6);
  s.t = r.keyed_real("t");
  s.step = r.keyed_integer("step");
  s.h = r.keyed_real("h");
  s.successes = static_cast<int>(r.keyed_integer("successes"));
  s.written.frames = r.keyed_integer("frames");
  s.written.last_frame_step = r.keyed_integer("last_frame_step");
  s.written.last_frame_t = r.keyed_real("last_frame_t");
  s.written.vtk_frames = r.keyed_integer("vtk_frames");
  s.written.last_vtk_frame_step = r.keyed_integer("last_vtk_frame_step");
  s.written.last_vtk_frame_t = r.keyed_real("last_vtk_frame_t");
  s.balance0 = r.keyed_real("balance0");
  r.keyword("work");
  s.work.external_work = r.real("external work");
  s.work.dissipated = r.real("dissipated energy");
  r.keyword("counters");
  for_each_carried_counter([&](const auto& field) { read_counter(r, field.name, s.counters.*field.member); });
  r.keyword("increments");
  const long n_increments = r.count("the increment count", 12);
  if (n_increments != 0 && n_increments != c.model.nodes) r.fail("increments for " + std::to_string(n_increments) +
                                                                  " nodes, the checkpoint has " +
                                                                  std::to_string(c.model.nodes));
  s.last_increment_h = r.real("the increment size");
  s.last_increment.resize(static_cast<std::size_t>(n_increments));
  for (auto& inc : s.last_increment) r.reals(inc, 6, "an increment");
  s.states.resize(static_cast<std::size_t>(c.model.nodes));
  for (std::size_t i = 0; i < s.states.size(); ++i) {
    r.keyword("node");
    if (r.integer("the node index") != static_cast<long>(i)) r.fail("node " + std::to_string(i) + " out of order");
    fem::NodeState& n = s.states[i];
    r.reals(n.position, 3, "a position");
    r.reals(n.velocity, 3, "a velocity");
    n.orientation.w() = r.real("an orientation");
    n.orientation.x() = r.real("an orientation");
    n.orientation.y() = r.real("an orientation");
    n.orientation.z() = r.real("an orientation");
    r.reals(n.angular_velocity, 3, "an angular velocity");
  }
  s.element_history.resize(static_cast<std::size_t>(c.model.elements));
  for (std::size_t i = 0; i < s.element_history.size(); ++i) {
    r.keyword("element");
    if (r.integer("the element index") != static_cast<long>(i))
      r.fail("element " + std::to_string(i) + " out of order");
    const long n = r.count("the history size", 2);
    if (n > 4096) r.fail("element " + std::to_string(i) + ": history size " + std::to_string(n));
    s.element_history[i].resize(static_cast<std::size_t>(n));
    r.reals(s.element_history[i], static_cast<int>(n), "an element history");
  }
  r.keyword("jacobian");
  solvers::KeptJacobian& j = s.kept_jacobian;
  j.valid = r.integer("whether a Jacobian is kept") != 0;
  const long fresh_starts = r.integer("the fresh starts before the kept Jacobian is tried");
  const long backoff = r.integer("the fresh starts after its next failure");
  if (fresh_starts < 0 || fresh_starts > solvers::Newton::max_backoff || backoff < 1 ||
      backoff > solvers::Newton::max_backoff)
    r.fail("fresh starts " + std::to_string(fresh_starts) + " and backoff " + std::to_string(backoff) +
           " out of range");
  j.fresh_starts = static_cast<int>(fresh_starts);
  j.backoff = static_cast<int>(backoff);
  const long baseline = r.integer("the corrections of the first step that kept the Jacobian");
  const long excess = r.integer("the corrections beyond those since");
  if (baseline < -1 || baseline > 1000000 || excess < 0 || excess >= solvers::Newton::aging_budget)
    r.fail("kept Jacobian's baseline " + std::to_string(baseline) + " and excess " + std::to_string(excess) +
           " out of range");
  j.baseline = static_cast<int>(baseline);
  j.excess = static_cast<int>(excess);
  j.h = r.real("the kept Jacobian's step");
  const long scheme = r.integer("the kept Jacobian's scheme");
  if (scheme < 0 || scheme > static_cast<long>(fem::TimeScheme::Static))
    r.fail("unknown time scheme " + std::to_string(scheme));
  j.scheme = static_cast<fem::TimeScheme>(scheme);
  j.ranks = static_cast<int>(r.integer("the kept Jacobian's rank count"));
  const long n_values = r.count("the kept Jacobian's entry count", 2);
  j.values.resize(static_cast<std::size_t>(n_values));
  r.reals(j.values, static_cast<int>(n_values), "a Jacobian entry");
  r.keyword("axes");
  const long n_axes = r.count("the count of the kept Jacobian's axes entries", 2);
  if (n_axes % 9 != 0)
    r.fail("the kept Jacobian's axes: " + std::to_string(n_axes) + " entries, not 9 per node");
  j.axes.resize(static_cast<std::size_t>(n_axes));
  r.reals(j.axes, static_cast<int>(n_axes), "an entry of the kept Jacobian's axes");
  r.keyword("lu_pivoting");
  j.pivoting_lu = r.integer("whether LU pivots since a failure without (1) or as configured (0)") != 0;
  r.keyword("objective");
  s.objective = r.real("the objective's integral");
  s.objective_integrand = r.real("the objective's integrand");
  r.keyword("sensitivity");
  const long n_parameters = r.integer("the count of the parameters differentiated by");
  if (n_parameters < 0 || n_parameters > 10000) r.fail(std::to_string(n_parameters) + " sensitivity parameters");
  for (long i = 0; i < n_parameters; ++i) s.sensitivity_parameters.push_back(r.word("a parameter's name"));
  const long n_derivatives = r.count("the count of the derivatives", 2);
  s.sensitivity.resize(static_cast<std::size_t>(n_derivatives));
  r.reals(s.sensitivity, static_cast<int>(n_derivatives), "a derivative");
  if (version >= 8) {
    r.keyword("inputs");
    s.inputs.resize(static_cast<std::size_t>(r.count("the count of the named inputs", 1)));
    r.reals(s.inputs, static_cast<int>(s.inputs.size()), "an input's value");
  }
  if (std::string extra; in >> extra) r.fail("unexpected '" + extra + "' before the checksum");
  if (at == std::string::npos) r.fail("it ends before its checksum (truncated?)");
  std::istringstream tail(text.substr(at + 1));
  std::string keyword, sum, end, extra;
  tail >> keyword >> sum >> end;
  if (end != "end" || (tail >> extra)) r.fail("it does not end with its checksum and 'end' (truncated or appended to?)");
  if (sum != hex64(fnv1a(std::string_view(text).substr(0, at + 1))))
    r.fail("its checksum does not match its contents (changed after it was written: a flipped digit, an edit, a "
           "disk error); continue from another checkpoint");
  check_plausible(c, r);
  return c;
}

void check_same_model(const Checkpoint& checkpoint, const ModelFingerprint& current, const fs::path& file) {
  const ModelFingerprint& saved = checkpoint.model;
  auto describe = [](const ModelFingerprint& m) {
    return "model '" + m.model_name + "' (" + std::to_string(m.unknowns) + " unknowns, " + std::to_string(m.nodes) +
           " nodes, " + std::to_string(m.elements) + " elements)";
  };
  if (saved.model_name != current.model_name || saved.unknowns != current.unknowns || saved.nodes != current.nodes ||
      saved.elements != current.elements)
    throw CheckpointError(file.string() + ": this checkpoint was written by " + describe(saved) +
                          ", not by this " + describe(current) + "; restart with the model that wrote it");
  if (saved.hash != current.hash)
    throw CheckpointError(file.string() + ": this checkpoint was written by " + describe(saved) +
                          " as it was then; the model has changed since (a parameter, a load, a law, a node, an "
                          "element, a support, gravity or an analysis setting other than t_end and output_every "
                          "differs, in the file or a --set; fingerprint " + hex64(saved.hash) + ", now " +
                          hex64(current.hash) + "); restart with the model and --set options that wrote it");
  // A checkpoint is written between nominal steps, at t = step · dt exactly.
  const solvers::IntegratorState& s = checkpoint.state;
  if (current.dt > 0.0 && std::abs(s.t - static_cast<double>(s.step) * current.dt) > 1e-9 * std::max(s.t, current.dt))
    throw CheckpointError(file.string() + ": not a readable Catena checkpoint: t = " + std::to_string(s.t) +
                          " s is not step " + std::to_string(s.step) + " times dt = " + std::to_string(current.dt) +
                          " s");
}

CheckpointWriter::CheckpointWriter(fs::path directory, ModelFingerprint model)
    : directory_(std::move(directory)), model_(std::move(model)) {}

std::string CheckpointWriter::file_name(long step) {
  char name[48];
  std::snprintf(name, sizeof name, "checkpoint_%06ld.ckpt", step);
  return name;
}

std::optional<long> CheckpointWriter::step_of(const std::string& name) {
  constexpr std::string_view prefix = "checkpoint_", suffix = ".ckpt";
  if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix))
    return std::nullopt;
  const char* first = name.data() + prefix.size();
  const char* last = name.data() + name.size() - suffix.size();
  long step = 0;
  const auto [end, ec] = std::from_chars(first, last, step);
  if (ec != std::errc() || end != last) return std::nullopt;
  return step;
}

namespace {

/// The checkpoint files of a directory with their steps, in ascending order of step.
std::vector<std::pair<long, fs::path>> checkpoint_files(const fs::path& directory) {
  std::vector<std::pair<long, fs::path>> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(directory, ec))
    if (const auto step = CheckpointWriter::step_of(entry.path().filename().string()))
      files.emplace_back(*step, entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

void CheckpointWriter::on_checkpoint(const solvers::IntegratorState& state) {
  const fs::path file = directory_ / file_name(state.step);
  write_checkpoint(file, Checkpoint{model_, state});
  last_written_ = file;
  // Keep the newest few up to this step: enough to go back past a step that went wrong, without
  // filling the disk on a long run.
  std::vector<std::pair<long, fs::path>> files = checkpoint_files(directory_);
  std::erase_if(files, [&](const auto& f) { return f.first > state.step; });
  std::error_code ec;
  for (std::size_t i = 0; i + files_kept < files.size(); ++i) fs::remove(files[i].second, ec);
}

void CheckpointWriter::remove_after(const fs::path& directory, long step) {
  std::error_code ec;
  for (const auto& [s, file] : checkpoint_files(directory))
    if (s > step) fs::remove(file, ec);
}

}  // namespace catena::io
