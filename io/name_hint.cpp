#include "io/name_hint.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace catena::io {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

}  // namespace

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) { return lower(x) == lower(y); });
}

int edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const int cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::optional<std::string_view> closest_match(std::string_view word, std::span<const std::string_view> candidates) {
  std::optional<std::string_view> best;
  int best_distance = std::numeric_limits<int>::max();
  for (std::string_view candidate : candidates) {
    const int reach = std::min(2, std::max(1, static_cast<int>(candidate.size()) / 3));
    const int d = edit_distance(word, candidate);
    // Never suggest a word that shares nothing with the misspelling ('x' for 'w').
    const int longer = static_cast<int>(std::max(word.size(), candidate.size()));
    if (d <= reach && d < longer && d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
  const auto match = closest_match(word, candidates);
  return match ? " (did you mean '" + std::string(*match) + "'?)" : std::string();
}

std::string did_you_mean(std::string_view word, std::span<const std::string> candidates) {
  const std::vector<std::string_view> views(candidates.begin(), candidates.end());
  return did_you_mean(word, std::span<const std::string_view>(views));
}

std::string join(std::span<const std::string_view> words, bool quote) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += ", ";
    out += quote ? "'" + std::string(words[i]) + "'" : std::string(words[i]);
  }
  return out;
}

std::string defined_names_note(std::span<const std::string> names, const DefinedNamesWording& wording) {
  if (names.empty() && !wording.none.empty()) return " (" + wording.none + ")";
  if (names.size() <= wording.list_at_most) {
    const std::vector<std::string_view> views(names.begin(), names.end());
    return " (" + wording.label + ": " + join(views) + wording.after_list + ")";
  }
  if (wording.counted.empty()) return {};
  return " (" + std::to_string(names.size()) + " " + wording.counted + ")";
}

std::string unknown_name_hint(std::string_view name, std::span<const std::string> names,
                              const DefinedNamesWording& wording) {
  std::string hint = did_you_mean(name, names);
  return hint.empty() ? defined_names_note(names, wording) : hint;
}

}  // namespace catena::io
