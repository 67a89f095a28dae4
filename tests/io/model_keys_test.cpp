// The table of model keys (io/model_keys.hpp): the reader's lists of known keys are its names,
// readers take units from it, and the key tables of docs/model-format.md are generated from it.
#include "io/model_keys.hpp"
#include "io/yaml_schema.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace catena::io::schema {
namespace {

namespace fs = std::filesystem;

const fs::path model_format = fs::path(CATENA_SOURCE_DIR) / "docs" / "model-format.md";

static_assert(unit_of("analysis", "dt") == "s");
static_assert(std::ranges::equal(known_keys("analysis"), keys_of<"analysis">));

/// A context as known_keys spells it: `*` (any component) as one of them.
std::string concrete(std::string_view context) {
  std::string c(context);
  if (const auto star = c.find('*'); star != std::string::npos) c.replace(star, 1, "x");
  return c;
}

TEST(ModelKeys, KnownKeysAreTheTablesNames) {
  for (const std::string_view context : key_contexts()) {
    if (context.starts_with("*")) continue;  // a repeat block, in any list: not a mapping of --set's paths
    std::vector<std::string_view> names;
    for (const auto group : model_key_groups)
      for (const ModelKey& key : group)
        if (key.context == context) names.push_back(key.name);
    const auto known = known_keys(concrete(context));
    EXPECT_TRUE(std::ranges::equal(known, names)) << "context '" << context << "'";
  }
}

TEST(ModelKeys, EveryKeyIsDocumentedOnce) {
  for (const std::string_view context : key_contexts()) {
    std::vector<std::string_view> names;
    for (const auto group : model_key_groups)
      for (const ModelKey& key : group) {
        if (key.context != context) continue;
        EXPECT_FALSE(key.doc.empty()) << context << "." << key.name;
        EXPECT_FALSE(key.required.empty()) << context << "." << key.name;
        EXPECT_EQ(std::count(names.begin(), names.end(), key.name), 0) << context << "." << key.name << " twice";
        names.push_back(key.name);
      }
  }
}

/// The text between the marker of `context` and the end marker, or nullopt without a marker.
std::optional<std::string> block(const std::string& document, std::string_view context) {
  const std::string begin = "<!-- keys: " + std::string(context) + " -->\n";
  const auto at = document.find(begin);
  if (at == std::string::npos) return std::nullopt;
  const auto from = at + begin.size();
  const auto end = document.find("<!-- /keys -->", from);
  if (end == std::string::npos) return std::nullopt;
  return document.substr(from, end - from);
}

// Run with CATENA_UPDATE_DOCS=1 to rewrite the tables of docs/model-format.md from the table.
TEST(ModelKeys, DocumentationTablesAreGenerated) {
  std::ifstream in(model_format);
  ASSERT_TRUE(in) << model_format;
  std::stringstream text;
  text << in.rdbuf();
  const std::string document = text.str();
  const std::string generated = with_key_tables(document);
  if (std::getenv("CATENA_UPDATE_DOCS") != nullptr && generated != document) {
    std::ofstream(model_format) << generated;
    GTEST_SKIP() << "rewrote the key tables of " << model_format;
  }
  for (const std::string_view context : key_contexts()) {
    const auto found = block(document, context);
    const std::string expected = "\n" + keys_markdown(context) + "\n";
    if (!found) {
      ADD_FAILURE() << model_format << " has no key table for '" << context << "'; add, where its keys are "
                    << "described:\n<!-- keys: " << context << " -->\n" << expected << "<!-- /keys -->";
    } else {
      EXPECT_EQ(*found, expected) << "the key table for '" << context << "' in " << model_format
                                  << " is not the generated one; expected:\n" << expected;
    }
  }
  EXPECT_EQ(generated, document);
}

}  // namespace
}  // namespace catena::io::schema
