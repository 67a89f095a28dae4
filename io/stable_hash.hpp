#pragma once
/// FNV-1a, 64 bits: a hash that is the same in every build and on every machine (std::hash may
/// differ between them), for what is written to a file (a checkpoint's model fingerprint and
/// checksum) or compared between processes (the MPI ranks' model, io/model_agreement.hpp).
#include <cstdint>
#include <string_view>

namespace catena::io {

inline constexpr std::uint64_t fnv1a_basis = 14695981039346656037ULL;

/// The hash of `text`; with the hash of what came before it as `h`, of the text continued.
[[nodiscard]] inline std::uint64_t fnv1a(std::string_view text, std::uint64_t h = fnv1a_basis) {
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace catena::io
