// The named inputs that laws of the motion read (fem/inputs.hpp): a program's value or a table.
#include "elements/joint.hpp"
#include "io/model/list_items.hpp"
#include "io/model/section_readers.hpp"
#include "io/yaml_schema.hpp"

#include <algorithm>
#include <map>

namespace catena::io::reader {

namespace {

constexpr ListSection inputs_section{"inputs", "a list of named inputs {name, value or table}",
                                     "an input {name, value or table}", schema::input};

/// An input's name: an identifier no expression reserves, not a parameter, not a variable of a
/// law of the motion (a law would not know which one it reads).
void check_input_name(const ModelContext& context, const Cursor& c, const std::string& name) {
  check_parameter_name(c, name);
  check_unreserved_name(c, name, "input name");
  if (context.parameters.contains(name))
    c.fail("'" + name + "' is a parameter; expected an input name that is not (a law would read either)");
  if (is_law_variable(name))
    c.fail("'" + name + "' is a variable of the laws of the motion (" + law_variables_note() +
           "); expected another input name");
}

std::vector<fem::Inputs::Row> read_table(const ModelContext& context, const Cursor& table) {
  table.expect_sequence("the input's rows [[t, value], ...], times increasing");
  std::vector<fem::Inputs::Row> rows;
  for (std::size_t k = 0; k < table.size(); ++k) {
    const Cursor row = table[k];
    if (!row.is_sequence() || row.size() != 2) row.fail_expected("a row [t, value]");
    const double t = read_number(row[0], context.parameters, Quantity{"time", "s"});
    const double v = read_number(row[1], context.parameters, Quantity{"input value", ""});
    if (!rows.empty() && !(t > rows.back().t))
      row[0].fail("expected the times of a table to increase; found " + format_number(t) + " s after " +
                  format_number(rows.back().t) + " s");
    rows.push_back({t, v});
  }
  if (rows.empty()) table.fail_expected("at least one row [t, value]");
  return rows;
}

}  // namespace

void read_inputs(ModelContext& context) {
  fem::Inputs& inputs = *context.model.inputs;
  std::map<std::string, int> lines;
  for_each_section_item(context, inputs_section, [&](const Cursor& item, std::size_t) {
    const Cursor name_cursor = item.get("name", "the input's name");
    const std::string name = read_string(name_cursor, "an input name");
    check_input_name(context, name_cursor, name);
    if (const auto it = lines.find(name); it != lines.end())
      name_cursor.fail("duplicate input name '" + name + "' (first defined on line " + std::to_string(it->second) +
                       "); expected a new name");
    lines.emplace(name, name_cursor.node().Mark().line + 1);
    const auto value = item.find("value");
    const auto table = item.find("table");
    if (value && table) table->fail("expected either value or table for one input; found both");
    if (table) {
      inputs.add_table(name, read_table(context, *table));
    } else {
      const Cursor v = item.get("value", "its value (a program may set it between steps), or table: [[t, value], ...]");
      inputs.add(name, read_number(v, context.parameters, Quantity{"input value", ""}));
    }
  });
}

}  // namespace catena::io::reader
