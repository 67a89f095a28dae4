#include "io/model/list_items.hpp"

#include "io/input_error.hpp"
#include "io/model/section_readers.hpp"
#include "io/yaml_schema.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>
#include <system_error>

namespace catena::io::reader {

namespace {

/// A whole number (a repeat bound or step), any sign.
long read_whole(const ModelContext& context, const Cursor& c, std::string_view noun) {
  const double v = read_number(c, context.parameters, Quantity{std::string(noun), ""});
  if (v != std::floor(v) || std::abs(v) > 1e9) {
    const std::string text = c.node().Scalar();
    double literal = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), literal);
    const bool plain = error == std::errc() && end == text.data() + text.size();
    c.fail("expected a whole number (" + std::string(noun) + "); found " +
           (plain ? text : "'" + text + "' = " + format_number(v)));
  }
  return static_cast<long>(v);
}

void visit_items(ModelContext& context, const Cursor& list, const ItemVisitor& visit, std::size_t& count);

/// While a repeat's items are visited: how many copies of them are still to come.
class RepeatCopies {
 public:
  RepeatCopies(SizeBudget& budget, double copies, int line) : budget_(budget) { budget_.enter_repeat(copies, line); }
  ~RepeatCopies() { budget_.leave_repeat(); }
  RepeatCopies(const RepeatCopies&) = delete;
  RepeatCopies& operator=(const RepeatCopies&) = delete;

 private:
  SizeBudget& budget_;
};

void visit_repeat(ModelContext& context, const Cursor& item, const Cursor& range, const ItemVisitor& visit,
                  std::size_t& count) {
  item.check_keys(schema::repeat_item);
  range.expect_map("a repeat range {index, from, to, step}");
  range.check_keys(schema::repeat);
  const Cursor index_cursor = range.get("index", "the name of the index variable");
  const std::string index = read_string(index_cursor, "an index name");
  check_parameter_name(index_cursor, index);
  if (context.parameters.contains(index))
    index_cursor.fail("the name '" + index + "' is already a parameter or an enclosing index; expected a new index name");
  const long from = read_whole(context, range.get("from", "the first index value"), "the first index value");
  const long to = read_whole(context, range.get("to", "the last index value"), "the last index value");
  long step = 1;
  if (const auto s = range.find("step")) {
    step = read_whole(context, *s, "the index step");
    if (step == 0) s->fail("expected a nonzero index step; found 0");
  }
  const long n = (to - from) / step + 1;
  if (n > 100000) range.fail("expected at most 100000 repetitions; found " + std::to_string(n));
  const Cursor items = item.get("items", "the list of items repeated for each index value");
  items.expect_sequence("a list of items to repeat");
  // The copies still to come, this one included, multiply what each item reserves (an enclosing
  // repeat's too): repeats nested 1e5 × 1e5 are refused at their first item, not after 276 s.
  const int line = range.node().Mark().line + 1;
  long copy = 0;
  for (long k = from; step > 0 ? k <= to : k >= to; k += step, ++copy) {
    context.parameters[index] = static_cast<double>(k);
    try {
      const RepeatCopies copies(context.budget, static_cast<double>(n - copy), line);
      visit_items(context, items, visit, count);
    } catch (const InputError& e) {
      throw InputError(e.file(), e.line(), e.column(), e.key(),
                       e.message() + " (in repeat " + index + " = " + std::to_string(k) + ")");
    }
  }
  context.parameters.erase(index);
}

void visit_items(ModelContext& context, const Cursor& list, const ItemVisitor& visit, std::size_t& count) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Cursor item = list[i];
    if (const auto range = item.find("repeat")) {
      visit_repeat(context, item, *range, visit, count);
    } else {
      context.budget.reserve(item, ModelSize{.items = 1.0}, "this item");
      try {
        visit(item, count++);
      } catch (const std::invalid_argument& e) {
        // What an element's constructor refuses ("joint axes must be a rotation"), at its item.
        item.fail(e.what());
      }
    }
  }
}

}  // namespace

void for_each_item(ModelContext& context, const Cursor& list, const ItemVisitor& visit) {
  std::size_t count = 0;
  visit_items(context, list, visit, count);
}

void for_each_mapping(ModelContext& context, const Cursor& list, std::string_view what,
                      std::span<const std::string_view> known, const ItemVisitor& visit) {
  for_each_item(context, list, [&](const Cursor& item, std::size_t count) {
    item.expect_map(what);
    item.check_keys(known);
    visit(item, count);
  });
}

void for_each_section_item(ModelContext& context, const ListSection& section, const ItemVisitor& visit) {
  if (const auto list = context.list_section(section.key, section.list_what))
    for_each_mapping(context, *list, section.item_what, section.item_keys, visit);
}

}  // namespace catena::io::reader
