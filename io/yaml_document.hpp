#pragma once
/// Whether a model file's text holds a second YAML document (after `---` or `...`), which the
/// reader refuses: it was ignored silently, and a user editing it would see nothing change.
/// yaml-cpp's tree says nothing of what follows the first document, so asking means parsing the
/// whole text again (a third of the time of `catena check` on a 10 MB model): that is done only
/// when the text's shape leaves room for a second document.
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace catena::io {

/// True when `text` cannot hold a second document, `first` being the document YAML::Load read
/// from it: `first` is a block mapping whose first key starts a line (yaml-cpp ends such a
/// mapping only at the end of the text, or at a line that starts with `---`, `...` or `%`), and no
/// line after its start begins with `---`, `...` or `%`. False says nothing (then parse).
[[nodiscard]] bool one_document_by_shape(std::string_view text, const YAML::Node& first);

/// Parses `text` for a second document: where it starts (its first node, else its `---`; a null
/// mark when yaml-cpp gives none), or nothing when there is none. The parser is asked for two
/// documents, never for all: yaml-cpp 0.7's LoadAll never returns on some malformed tails
/// (" e: 0\n," gives empty documents forever; found by tests/fuzz/model_reader_fuzz.cpp).
[[nodiscard]] std::optional<YAML::Mark> parse_second_document(std::string_view text);

/// `parse_second_document`, unless `one_document_by_shape` rules a second document out.
[[nodiscard]] std::optional<YAML::Mark> second_document(std::string_view text, const YAML::Node& first);

/// A node that YAML aliases share: written once after an anchor (`&p`) and used again wherever an
/// alias (`*p`) names it. yaml-cpp's tree holds it once, at every place that uses it, and keeps no
/// trace of either: changing it there changes it everywhere.
struct SharedNode {
  YAML::Mark mark;  ///< the node's own (yaml-cpp places a node with an anchor at its `&`)
  YAML::NodeType::value type = YAML::NodeType::Null;
  std::string anchor;  ///< "p"; empty when the text at `mark` does not show it
  YAML::Mark first_alias;
};

/// The nodes that aliases share in the first document of `text`, in the order of their first
/// aliases. Parses the text again, unless it has no '&' (then no node has an anchor).
[[nodiscard]] std::vector<SharedNode> shared_nodes(std::string_view text);

/// Whether `node` of the document read from the text is `shared` (the same place and type).
[[nodiscard]] const SharedNode* find_shared(const std::vector<SharedNode>& shared, const YAML::Node& node);

}  // namespace catena::io
