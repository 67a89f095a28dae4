#include "io/model_reader.hpp"

#include "io/model/model_context.hpp"
#include "io/model/size_budget.hpp"
#include "io/model/section_readers.hpp"
#include "io/yaml_cursor.hpp"
#include "io/yaml_document.hpp"
#include "io/yaml_overrides.hpp"
#include "io/yaml_schema.hpp"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

namespace catena::io {

namespace {

/// Builds a model from a document, section by section, validating as it goes. The order is that
/// of the sections' dependencies: a section may use only the names the ones before it defined.
fem::Model build(Cursor root) {
  root.expect_map("a model");
  root.check_keys(schema::top_level);
  reader::ModelContext context(std::move(root));
  reader::read_model_name(context);
  reader::read_parameters(context);
  reader::read_inputs(context);  // before the sections whose laws read them
  reader::scan_sensor_names(context);  // the laws' sensors, defined last
  reader::read_planar(context);  // loads and gravity must lie in the plane
  reader::read_gravity(context);
  reader::read_nodes(context);
  reader::read_initial_velocity(context);
  reader::read_beams(context);   // generates nodes: every later section may use them
  reader::read_chains(context);  // generates nodes, rigid bodies and joints
  reader::read_sets(context, /*element_sets=*/false);
  reader::read_supports(context);
  reader::read_masses(context);
  reader::read_trusses(context);
  reader::read_rigid_bodies(context);
  reader::read_joints(context);
  reader::read_sets(context, /*element_sets=*/true);
  reader::read_loads(context);
  reader::read_beam_loads(context);
  reader::read_analysis(context);
  reader::read_output(context);
  reader::read_sensors(context);
  reader::bind_law_sensors(context);
  context.model.couple_law_sensors();
  reader::read_objective(context);
  reader::apply_initial_velocity(context);
  reader::apply_planar(context);
  if (context.model.analysis.type == fem::AnalysisType::Dynamic) reader::check_free_nodes_have_inertia(context);
  context.model.update_length_scale();
  return std::move(context.model);
}

/// The memory of yaml-cpp's tree per byte of the file it holds (measured: docs/model-format.md, "Limits").
constexpr double yaml_bytes_per_file_byte = 60.0;

/// A model file's first YAML document and its text.
struct Document {
  YAML::Node root;
  std::string text;
};

/// Refuses a model whose YAML tree would not fit: a 100 MB model needed more than 6 GB as a tree
/// before any of it was checked.
void check_model_size(double bytes, const std::string& display) {
  if (bytes > max_model_file_bytes)
    throw InputError(display, 0, 0, "",
                     "expected a model file of at most " + reader::format_bytes(max_model_file_bytes) + "; found " +
                         reader::format_bytes(bytes));
  const reader::MemoryLimit limit = reader::memory_limit();
  const double tree = yaml_bytes_per_file_byte * bytes;
  if (!(tree <= limit.bytes))
    throw InputError(display, 0, 0, "",
                     "reading this " + reader::format_bytes(bytes) + " model would need about " +
                         reader::format_bytes(tree) + " for its YAML tree; expected at most " + limit.described);
}

Document parse_document(std::string text, const std::string& display) {
  check_model_size(static_cast<double>(text.size()), display);
  try {
    YAML::Node first = YAML::Load(text);
    // One document (io/yaml_document.hpp).
    if (const std::optional<YAML::Mark> second = second_document(text, first)) {
      const YAML::Mark mark = *second;
      throw InputError(display, mark.is_null() ? 0 : mark.line + 1, mark.is_null() ? 0 : mark.column + 1, "",
                       "expected one YAML document (the model); found a second one here (after '---' or '...')");
    }
    return {std::move(first), std::move(text)};
  } catch (const YAML::Exception& e) {
    const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
    const int column = e.mark.is_null() ? 0 : e.mark.column + 1;
    throw InputError(display, line, column, "", "malformed YAML: " + e.msg);
  }
}

Document load_document(const std::filesystem::path& file, const std::string& display) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw InputError(display, 0, 0, "", "expected a model file; found a directory");
  // A regular file of bounded size: a FIFO without a writer waited forever.
  if (std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec))
    throw InputError(display, 0, 0, "", "expected a model file; found a device, FIFO or socket");
  if (const std::uintmax_t bytes = std::filesystem::file_size(file, ec); !ec)
    check_model_size(static_cast<double>(bytes), display);
  std::ifstream in(file);
  if (!in) throw InputError(display, 0, 0, "", std::string("cannot open the model file: ") + std::strerror(errno));
  return parse_document(std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()}, display);
}

fem::Model build_document(const Document& document, const std::string& display,
                          std::span<const std::string> overrides) {
  Source source(display);
  try {
    apply_overrides(document.root, document.text, overrides, source);
    return build(Cursor(source, document.root));
  } catch (const YAML::Exception& e) {
    // Not expected (every access is checked first), but a model file must never crash the reader.
    const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
    const int column = e.mark.is_null() ? 0 : e.mark.column + 1;
    throw InputError(display, line, column, "", "cannot read the model: " + e.msg);
  }
}

std::string restart_text(const Document& document, const std::string& display,
                         std::span<const std::string> overrides) {
  YAML::Node root = document.root;
  Source source(display);
  apply_overrides(root, document.text, overrides, source);
  // What a continued run may change: how far it runs and what it writes.
  if (root.IsMap()) {
    root.remove("output");
    if (YAML::Node analysis = root["analysis"]; analysis.IsMap()) {
      analysis.remove("t_end");
      analysis.remove("output_every");
    }
  }
  YAML::Emitter out;
  out << root;
  return out.c_str();
}

}  // namespace

fem::Model read_model(const std::filesystem::path& file, std::span<const std::string> overrides) {
  const std::string display = file.string();
  return build_document(load_document(file, display), display, overrides);
}

fem::Model read_model(const ModelText& model, std::span<const std::string> overrides) {
  return build_document(parse_document(model.text, model.name), model.name, overrides);
}

std::string restart_document(const std::filesystem::path& file, std::span<const std::string> overrides) {
  const std::string display = file.string();
  return restart_text(load_document(file, display), display, overrides);
}

std::string restart_document(const ModelText& model, std::span<const std::string> overrides) {
  return restart_text(parse_document(model.text, model.name), model.name, overrides);
}

}  // namespace catena::io
