#include "io/model_agreement.hpp"

#include "assembly/collectives.hpp"
#include "assembly/petsc_session.hpp"
#include "io/stable_hash.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <utility>
#include <vector>

namespace catena::io {

namespace {

/// The model file's bytes, hashed as they are read; 0 when it is not a regular file that can be
/// read (the reader then refuses it, on every rank alike; a FIFO would block here).
std::uint64_t file_hash(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return 0;
  std::ifstream in(file, std::ios::binary);
  if (!in) return 0;
  std::uint64_t h = fnv1a_basis;
  std::array<char, 1 << 16> buffer{};
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0)
    h = fnv1a(std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())), h);
  return in.bad() ? 0 : h;
}

/// How a rank's input differs from rank 0's: "other --set options than rank 0", ...
std::string difference_from_root(const ModelInput& rank, const ModelInput& root) {
  std::string out;
  if (rank.file != root.file)
    out = rank.file == 0   ? "no model file it can read (rank 0 reads one)"
          : root.file == 0 ? "a model file rank 0 cannot read"
                           : "a model file whose text differs from rank 0's";
  if (rank.overrides != root.overrides) {
    if (!out.empty()) out += " and ";
    out += "other --set options than rank 0";
  }
  return out;
}

/// "rank 1", "ranks 1, 3".
std::string ranks_text(const std::vector<std::size_t>& ranks) {
  std::string out = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t k = 0; k < ranks.size(); ++k) out += (k > 0 ? ", " : "") + std::to_string(ranks[k]);
  return out;
}

}  // namespace

ModelInput model_input(const RunOptions& options) {
  std::uint64_t overrides = fnv1a_basis;
  // Each with its '\0', so that "a", "b" differs from "ab".
  for (const std::string& o : options.overrides)
    overrides = fnv1a(std::string_view(o.c_str(), o.size() + 1), overrides);
  return {options.model_text ? fnv1a(*options.model_text) : file_hash(options.model), overrides};
}

std::optional<std::string> model_input_difference(std::span<const ModelInput> ranks) {
  // Ranks that differ alike, in the order of the first of them.
  std::vector<std::pair<std::string, std::vector<std::size_t>>> differences;
  for (std::size_t r = 1; r < ranks.size(); ++r) {
    if (ranks[r] == ranks.front()) continue;
    std::string how = difference_from_root(ranks[r], ranks.front());
    auto same = std::find_if(differences.begin(), differences.end(), [&](const auto& d) { return d.first == how; });
    if (same == differences.end()) same = differences.insert(differences.end(), {std::move(how), {}});
    same->second.push_back(r);
  }
  if (differences.empty()) return std::nullopt;
  std::string out = "the MPI ranks were not given the same model: ";
  for (std::size_t k = 0; k < differences.size(); ++k) {
    if (k > 0) out += "; ";
    out += ranks_text(differences[k].second);
    out += ": ";
    out += differences[k].first;
  }
  out += "; run every rank with the same model file and --set options (nothing was written)";
  return out;
}

fem::Model read_model_on_every_rank(const RunOptions& options) {
  const bool root = assembly::PetscSession::rank() == 0;
  if (assembly::PetscSession::size() > 1) {
    const ModelInput mine = model_input(options);
    const std::vector<std::uint64_t> inputs = assembly::gather_on_every_rank(std::array{mine.file, mine.overrides});
    std::vector<ModelInput> ranks;
    for (std::size_t r = 0; r + 1 < inputs.size(); r += 2) ranks.push_back({inputs[r], inputs[r + 1]});
    if (const std::optional<std::string> difference = model_input_difference(ranks))
      throw ModelLoadError("catena: " + options.model.string() + ": " + *difference);
  }
  std::optional<fem::Model> model;
  std::string error;
  try {
    model = read_run_model(options);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (assembly::PetscSession::size() == 1 && model) return std::move(*model);
  const std::vector<std::uint64_t> loaded =
      assembly::gather_on_every_rank(std::array<std::uint64_t, 1>{model ? 1U : 0U});
  if (std::find(loaded.begin(), loaded.end(), 0U) == loaded.end()) return std::move(*model);
  if (!model && !root && loaded.front() == 1U)
    // Rank 0 read the same input: what differs is this rank's environment (its memory limit).
    std::cerr << "catena: rank " << assembly::PetscSession::rank()
              << ": the model cannot be read on this rank, though rank 0 read it:\n"
              << error << '\n';
  // Every rank throws; rank 0's message is the one reported (the others' may be empty).
  throw ModelLoadError(error);
}

std::optional<fem::Model> load_model_on_every_rank(const RunOptions& options) {
  try {
    return read_model_on_every_rank(options);
  } catch (const std::exception& e) {
    if (assembly::PetscSession::rank() == 0 && *e.what() != '\0') std::cerr << e.what() << '\n';
  }
  return std::nullopt;
}

}  // namespace catena::io
