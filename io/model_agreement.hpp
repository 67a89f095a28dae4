#pragma once
/// Every MPI rank of a run reads the model itself, from the model file and the --set options it
/// was given. Ranks given different ones (an mpirun line whose ranks get different arguments, a
/// model file that differs between the machines) would each build another model and "complete" a
/// run whose results belong to neither: the ranks compare what they were given first, and all
/// refuse together (exit 2) when it differs, saying which ranks differ and in what.
#include "io/commands.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace catena::io {

/// What a rank was given to build its model from.
struct ModelInput {
  std::uint64_t file = 0;       ///< hash of the model file's bytes; 0: it cannot be read (as a regular file)
  std::uint64_t overrides = 0;  ///< hash of the --set options, in their order
  friend bool operator==(const ModelInput&, const ModelInput&) = default;
};

/// This process's model file and --set options, hashed (io/stable_hash.hpp).
[[nodiscard]] ModelInput model_input(const RunOptions& options);

/// What differs between the ranks' inputs (in rank order) and rank 0's, for the refusal naming
/// the ranks and whether their model files or their --set options differ; none when all agree.
[[nodiscard]] std::optional<std::string> model_input_difference(std::span<const ModelInput> ranks);

/// `load_model` on every rank of the run, agreed: the model, or none on every rank. Collective:
/// the ranks first compare their model inputs (rank 0 reports a difference); then every rank
/// learns whether all read the model (a rank that could not, where rank 0 could, says why: an
/// environment that differs, such as the memory limit), so that none waits for the others in
/// a later collective.
[[nodiscard]] std::optional<fem::Model> load_model_on_every_rank(const RunOptions& options);
/// The same, throwing ModelLoadError (io/commands.hpp) on every rank instead of printing: its
/// message on rank 0 is the one to report (InputError's located text for model input).
[[nodiscard]] fem::Model read_model_on_every_rank(const RunOptions& options);

}  // namespace catena::io
