#include "io/model_reader.hpp"

#include "io/model/model_context.hpp"
#include "io/model/section_readers.hpp"
#include "io/yaml_cursor.hpp"
#include "io/yaml_overrides.hpp"
#include "io/yaml_schema.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

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
  reader::read_objective(context);
  reader::apply_initial_velocity(context);
  reader::apply_planar(context);
  if (context.model.analysis.type == fem::AnalysisType::Dynamic) reader::check_free_nodes_have_inertia(context);
  context.model.update_length_scale();
  return std::move(context.model);
}

YAML::Node load_document(const std::filesystem::path& file, const std::string& display) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw InputError(display, 0, 0, "", "expected a model file; found a directory");
  std::ifstream in(file);
  if (!in) throw InputError(display, 0, 0, "", std::string("cannot open the model file: ") + std::strerror(errno));
  try {
    // One document: a second one (after `---`, or text after the end marker `...`) was ignored
    // silently, and a user editing it would see nothing change.
    std::vector<YAML::Node> documents = YAML::LoadAll(in);
    if (documents.size() > 1) {
      const YAML::Mark mark = documents[1].Mark();
      throw InputError(display, mark.is_null() ? 0 : mark.line + 1, mark.is_null() ? 0 : mark.column + 1, "",
                       "expected one YAML document (the model); found a second one here (after '---' or '...')");
    }
    return documents.empty() ? YAML::Node() : documents.front();
  } catch (const YAML::Exception& e) {
    const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
    const int column = e.mark.is_null() ? 0 : e.mark.column + 1;
    throw InputError(display, line, column, "", "malformed YAML: " + e.msg);
  }
}

}  // namespace

fem::Model read_model(const std::filesystem::path& file, std::span<const std::string> overrides) {
  const std::string display = file.string();
  const YAML::Node root = load_document(file, display);
  Source source(display);
  try {
    apply_overrides(root, overrides, source);
    return build(Cursor(source, root));
  } catch (const YAML::Exception& e) {
    // Not expected (every access is checked first), but a model file must never crash the reader.
    const int line = e.mark.is_null() ? 0 : e.mark.line + 1;
    const int column = e.mark.is_null() ? 0 : e.mark.column + 1;
    throw InputError(display, line, column, "", "cannot read the model: " + e.msg);
  }
}

}  // namespace catena::io
