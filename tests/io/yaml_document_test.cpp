// io/yaml_document: the shortcut that spares a model file its second parse never hides a second
// document (nor a malformed one the second parse would find), and it takes effect on real models.
#include "io/yaml_document.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace catena::io {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(YamlDocument, ShapeNeverHidesASecondDocument) {
  // Random texts of YAML's structural pieces, half of them starting as a model does (a key at the
  // start of the first line): wherever YAML::Load reads a first document and the shortcut says there
  // is no other, the second parse must find none and raise nothing.
  const std::vector<std::string> pieces{"a", "b1", "_k", ":", ": ", " ", "  ", "\n", "\n", "\r\n", "\r", "- ", "-",
                                        "---", "--- ", "...", "%YAML 1.2\n", "%", ",", "{", "}", "[", "]", "#c",
                                        "&x ", "*x", "!t ", "? ", "'q'", "\"q\"", "|\n", ">", "\t", "1",
                                        std::string(1, '\0'), "\xEF\xBB\xBF", "\xFF\xFE"};
  std::mt19937 rng(20);
  int loaded = 0;
  int by_shape = 0;
  int second = 0;
  for (int n = 0; n < 40000; ++n) {
    std::string text = n % 2 == 0 ? "a: " : "";
    const int count = 1 + static_cast<int>(rng() % 14);
    for (int k = 0; k < count; ++k) text += pieces[rng() % pieces.size()];
    YAML::Node first;
    try {
      first = YAML::Load(text);
    } catch (const std::exception&) {
      continue;  // malformed: the reader reports it before asking for a second document
    }
    ++loaded;
    if (!one_document_by_shape(text, first)) {
      try {
        second += parse_second_document(text).has_value();
      } catch (const std::exception&) {
      }
      continue;
    }
    ++by_shape;
    std::optional<YAML::Mark> parsed;
    EXPECT_NO_THROW(parsed = parse_second_document(text)) << '"' << text << '"';
    EXPECT_FALSE(parsed) << '"' << text << '"';
  }
  // The sample reaches both sides.
  EXPECT_GT(by_shape, 2000) << loaded;
  EXPECT_GT(second, 200) << loaded;
}

TEST(YamlDocument, DocumentMarkersAndOddRootsAreParsed) {
  const auto by_shape = [](const std::string& text) { return one_document_by_shape(text, YAML::Load(text)); };
  EXPECT_TRUE(by_shape("name: a\nnodes: []\n"));
  EXPECT_TRUE(by_shape("# comment\n---\nname: a\n"));        // a leading `---` is the first document's
  EXPECT_TRUE(by_shape("%YAML 1.2\n---\nname: a\n"));        // and so is a directive before it
  EXPECT_FALSE(by_shape("name: a\n---\nname: b\n"));
  EXPECT_FALSE(by_shape("name: a\n...\n"));
  EXPECT_FALSE(by_shape("name: a\n--- # x\n"));
  EXPECT_FALSE(by_shape(" e: 0\n,"));                        // indented: a stray ',' ends it
  EXPECT_FALSE(by_shape("{a: 1}\n,"));                       // a flow mapping
  EXPECT_FALSE(by_shape("&m\na: 1\n"));                      // an anchor before the mapping
  EXPECT_FALSE(by_shape("- a\n- b\n"));                      // not a mapping
  // What the parse then finds: the second document's first node (0-based line), or nothing.
  const std::optional<YAML::Mark> after_start = second_document("name: a\n---\nname: b\n", YAML::Load("name: a\n"));
  ASSERT_TRUE(after_start);
  EXPECT_EQ(after_start->line, 2);
  EXPECT_TRUE(second_document(" e: 0\n,", YAML::Load(" e: 0\n,")));
  EXPECT_FALSE(second_document("name: a\n...\n", YAML::Load("name: a\n...\n")));
}

TEST(YamlDocument, SharedNodesAreTheAnchoredNodesThatAliasesUse) {
  const std::string text =
      "a: &p [1, 0, 0]\n"    // used twice below
      "b: *p\n"
      "c: &unused 2\n"       // an anchor alone shares nothing
      "d: {e: &s 3}\n"
      "f: [*s, *p]\n";
  const YAML::Node root = YAML::Load(text);
  const std::vector<SharedNode> shared = shared_nodes(text);
  ASSERT_EQ(shared.size(), 2u);
  EXPECT_EQ(shared[0].anchor, "p");
  EXPECT_EQ(shared[0].mark.line, 0);
  EXPECT_EQ(shared[0].first_alias.line, 1);
  EXPECT_EQ(shared[1].anchor, "s");
  EXPECT_EQ(shared[1].first_alias.line, 4);
  // Found in the tree by place: at the anchor and at each alias (the same node), nowhere else.
  EXPECT_EQ(find_shared(shared, root["a"]), &shared[0]);
  EXPECT_EQ(find_shared(shared, root["b"]), &shared[0]);
  EXPECT_EQ(find_shared(shared, root["f"][0]), &shared[1]);
  EXPECT_EQ(find_shared(shared, root["a"][0]), nullptr);  // inside a shared node: its callers walk from the top
  EXPECT_EQ(find_shared(shared, root["c"]), nullptr);
  EXPECT_EQ(find_shared(shared, root["d"]), nullptr);
  EXPECT_TRUE(shared_nodes("a: 1\nb: '*x'\n").empty());  // no '&': not parsed
}

TEST(YamlDocument, ModelsOfTheCasesNeedNoSecondParse) {
  int models = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(CATENA_SOURCE_DIR) / "cases")) {
    const fs::path file = entry.path() / "model.yaml";
    if (!fs::exists(file)) continue;
    const std::string text = read_text(file);
    EXPECT_TRUE(one_document_by_shape(text, YAML::Load(text))) << file;
    ++models;
  }
  EXPECT_GT(models, 20);
}

}  // namespace
}  // namespace catena::io
