// `analysis.objective`: a scalar of the run, an integral over time of an expression of the sensors
// plus an expression at the end (fem::Objective), read after the sensors whose names it uses.
#include "io/model/section_readers.hpp"
#include "io/model/values.hpp"
#include "io/yaml_schema.hpp"

namespace catena::io::reader {

void read_objective(ModelContext& context) {
  const Cursor analysis = context.root.get("analysis", "the analysis settings");
  const auto c = analysis.find("objective");
  if (!c) return;
  c->expect_map("an objective {integrand, final}: expressions of the sensors' names, t and the parameters");
  c->check_keys(schema::objective);
  fem::Model& model = context.model;
  if (model.analysis.type != fem::AnalysisType::Dynamic && model.analysis.type != fem::AnalysisType::Static)
    c->fail("expected an objective only in a dynamic or static analysis (it is a function of the run's history); "
            "found one in an eigen or buckling analysis");
  std::vector<std::string> names;
  std::string listed;
  for (const fem::Sensor& s : model.sensors) {
    names.push_back(s.name);
    listed += (listed.empty() ? "" : ", ") + s.name;
  }
  const auto read = [&](const char* key) -> std::optional<fem::Expression> {
    const auto e = c->find(key);
    if (!e) return std::nullopt;
    const std::string text = read_string(*e, "an expression of the sensors' names, t and the parameters");
    try {
      return fem::Expression(text, context.parameters, names);
    } catch (const fem::ValueListError& error) {
      e->fail(error.what());
    } catch (const fem::ExpressionError& error) {
      e->fail(std::string(error.what()) + " (names: the sensors " + (listed.empty() ? "(none)" : listed) +
              ", t and the parameters)");
    }
  };
  fem::Objective objective{read("integrand"), read("final")};
  if (!objective.integrand && !objective.final)
    c->fail_expected("an integrand or a final value (or both)");
  model.objective = std::move(objective);
}

}  // namespace catena::io::reader
