#include "io/yaml_document.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>

namespace catena::io {

namespace {

/// Where the second document of a stream begins: the position of its first node (the document's
/// own start is its `---`, or the end of the first one).
class SecondDocument : public YAML::EventHandler {
 public:
  std::optional<YAML::Mark> start;

  void OnDocumentStart(const YAML::Mark& mark) override {
    ++documents_;
    if (documents_ == 2) document_start_ = mark;
  }
  void OnDocumentEnd() override {
    if (documents_ == 2 && !start) start = document_start_;
  }
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override { node(mark); }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(mark);
  }
  void OnMapEnd() override {}

 private:
  void node(const YAML::Mark& mark) {
    if (documents_ == 2 && !start) start = mark;
  }
  int documents_ = 0;
  YAML::Mark document_start_ = YAML::Mark::null_mark();
};

/// The anchored nodes of a document, and those of them that an alias uses.
class Anchors : public YAML::EventHandler {
 public:
  explicit Anchors(std::string_view text) : text_(text) {}
  std::vector<SharedNode> shared;

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { node(mark, anchor, YAML::NodeType::Null); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    const auto it = anchored_.find(anchor);
    // Recorded at its first alias (every alias names an anchor before it: YAML::Load read the text).
    if (it == anchored_.end() || !it->second.first_alias.is_null()) return;
    it->second.first_alias = mark;
    shared.push_back(it->second);
  }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, const std::string&) override {
    node(mark, anchor, YAML::NodeType::Scalar);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    node(mark, anchor, YAML::NodeType::Sequence);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    node(mark, anchor, YAML::NodeType::Map);
  }
  void OnMapEnd() override {}

 private:
  void node(const YAML::Mark& mark, YAML::anchor_t anchor, YAML::NodeType::value type) {
    if (anchor == YAML::NullAnchor) return;
    anchored_[anchor] = {mark, type, anchor_name(mark), YAML::Mark::null_mark()};
  }
  /// "p" from the text's "&p" at `mark` (a UTF-16 or UTF-32 text's positions are not its bytes).
  std::string anchor_name(const YAML::Mark& mark) const {
    const auto at = static_cast<std::size_t>(mark.pos);
    if (mark.pos < 0 || at >= text_.size() || text_[at] != '&') return {};
    const std::size_t end = text_.find_first_of(" \t\r\n,[]{}", at + 1);
    return std::string(text_.substr(at + 1, end == std::string_view::npos ? end : end - at - 1));
  }
  std::string_view text_;
  std::map<YAML::anchor_t, SharedNode> anchored_;
};

/// A line that yaml-cpp's scanner may read as a document start (`---`), a document end (`...`)
/// or a directive (`%`): the only tokens that end a block mapping whose keys start their lines
/// (they pop every indentation; any other token there is part of the mapping, or an error).
bool starts_document_marker(std::string_view line) {
  return line.starts_with("---") || line.starts_with("...") || line.starts_with('%');
}

bool is_key_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

bool one_document_by_shape(std::string_view text, const YAML::Node& first) {
  // yaml-cpp decodes UTF-16 and UTF-32 (known by a byte-order mark or zero bytes): their
  // characters are not the bytes searched here. A UTF-8 byte-order mark is left to the parser too.
  if (text.empty() || text.find('\0') != std::string_view::npos) return false;
  const auto lead = static_cast<unsigned char>(text.front());
  if (lead == 0xEF || lead == 0xFE || lead == 0xFF) return false;
  if (!first.IsMap()) return false;
  // The mapping's mark is that of its first token. A letter, digit or '_' there, at the start of a
  // line, is a plain key: the mapping is a block mapping indented by 0 (a flow mapping starts with
  // '{', and an anchor or a tag before it could leave the mapping indented further).
  const YAML::Mark mark = first.Mark();
  if (mark.is_null() || mark.column != 0 || mark.pos < 0) return false;
  const auto start = static_cast<std::size_t>(mark.pos);
  if (start >= text.size() || (start > 0 && text[start - 1] != '\n') || !is_key_start(text[start])) return false;
  // Markers before the mapping belong to the first document (a leading `---`, directives).
  // yaml-cpp starts a line after '\n'; '\r' is counted too, to be safe.
  for (std::size_t end = text.find_first_of("\r\n", start); end != std::string_view::npos;
       end = text.find_first_of("\r\n", end + 1)) {
    if (starts_document_marker(text.substr(end + 1))) return false;
  }
  return true;
}

std::optional<YAML::Mark> parse_second_document(std::string_view text) {
  std::istringstream stream{std::string(text)};
  YAML::Parser parser(stream);
  SecondDocument second;
  if (parser.HandleNextDocument(second) && parser.HandleNextDocument(second))
    return second.start.value_or(YAML::Mark::null_mark());
  return std::nullopt;
}

std::optional<YAML::Mark> second_document(std::string_view text, const YAML::Node& first) {
  if (one_document_by_shape(text, first)) return std::nullopt;
  return parse_second_document(text);
}

std::vector<SharedNode> shared_nodes(std::string_view text) {
  if (text.find('&') == std::string_view::npos) return {};
  std::istringstream stream{std::string(text)};
  YAML::Parser parser(stream);
  Anchors anchors(text);
  parser.HandleNextDocument(anchors);
  return std::move(anchors.shared);
}

const SharedNode* find_shared(const std::vector<SharedNode>& shared, const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return nullptr;  // a value --set added
  const auto it = std::find_if(shared.begin(), shared.end(),
                               [&](const SharedNode& s) { return s.mark.pos == mark.pos && s.type == node.Type(); });
  return it == shared.end() ? nullptr : &*it;
}

}  // namespace catena::io
