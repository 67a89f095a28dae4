#pragma once
/// What a message adds after an unknown name: the close name the user probably meant
/// (" (did you mean 'x'?)"), or else the names that exist (" (defined: a, b)"), or how many there
/// are. Every "unknown ..." message of the reader and of `--set` takes its hint from here.
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace catena::io {

/// Whether `a` and `b` are the same words but for the case of their letters.
bool equal_ignoring_case(std::string_view a, std::string_view b);

/// Case-insensitive optimal-string-alignment distance: insertions, deletions, substitutions and
/// transpositions of two adjacent characters each count one edit.
int edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word` if it is within min(2, max(1, n / 3)) edits of it (n: length
/// of the candidate) and fewer edits than the longer word's length, so that short names are not
/// "corrected" into unrelated ones.
std::optional<std::string_view> closest_match(std::string_view word, std::span<const std::string_view> candidates);

/// " (did you mean 'x'?)" for the closest candidate, or "" when none is close.
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);
std::string did_you_mean(std::string_view word, std::span<const std::string> candidates);

/// "a, b, c" (quoted with '' when `quote`).
std::string join(std::span<const std::string_view> words, bool quote = false);

/// How `defined_names_note` words the names that exist.
struct DefinedNamesWording {
  /// " (<none>)" when there are no names; empty: the (empty) list as below.
  std::string none{};
  /// " (<label>: a, b, c<after_list>)" for at most `list_at_most` names.
  std::string label = "defined";
  std::string after_list{};
  std::size_t list_at_most = std::numeric_limits<std::size_t>::max();
  /// More names: " (<count> <counted>)", or nothing when `counted` is empty.
  std::string counted{};
};

/// The names that exist, worded as `wording` says: for a name that matched none of them.
std::string defined_names_note(std::span<const std::string> names, const DefinedNamesWording& wording);

/// `did_you_mean(name, names)`, or when no name is close, `defined_names_note(names, wording)`.
std::string unknown_name_hint(std::string_view name, std::span<const std::string> names,
                              const DefinedNamesWording& wording);

}  // namespace catena::io
