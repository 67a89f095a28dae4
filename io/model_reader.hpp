#pragma once
/// The model reader: a YAML model file (format and every key: docs/model-format.md) is read,
/// validated and built into a `fem::Model`. Every user error (malformed YAML, unknown or missing
/// keys, wrong types, bad expressions, unknown node names, non-physical values) is reported as an
/// `InputError` naming the file, line, column and key path of the offending value, with what was
/// expected and what was found. yaml-cpp stays inside io/*.cpp: this header does not include it.
#include "fem/model.hpp"
#include "io/input_error.hpp"  // every reader error; re-exported for the reader's callers

#include <filesystem>
#include <span>
#include <string>

namespace catena::io {

/// The largest model file read (64 MiB): its YAML tree takes some 60 times its size in memory.
inline constexpr double max_model_file_bytes = 64.0 * 1024 * 1024;

/// Reads, validates and builds a model. `overrides` are the `--set key=value` strings of the
/// command line: a declared parameter name replaces that parameter (its value may be an expression
/// of earlier parameters); otherwise `key` is a dotted path into the document (`analysis.dt`,
/// `nodes.1.position.0`, `trusses.rod.EA`) whose scalar is replaced, or added when the key is a
/// known optional key of an existing mapping. Throws `InputError`.
fem::Model read_model(const std::filesystem::path& file, std::span<const std::string> overrides = {});

/// A model given as YAML text instead of a file (the Python module's `catena.Model(text=...)`):
/// `name` takes the file's place in every message ("pendulum:4:7: masses[0].mass: ...").
struct ModelText {
  std::string text;
  std::string name;
};

/// Reads, validates and builds a model from its text, as `read_model` does from a file (the same
/// size limit, overrides and messages). Throws `InputError`.
fem::Model read_model(const ModelText& model, std::span<const std::string> overrides = {});

/// The model file's document with `overrides` applied, without what a run continued from a
/// checkpoint may change (analysis.t_end, analysis.output_every, the `output` section), as YAML
/// text without comments: what a checkpoint's fingerprint covers (io/checkpoint.hpp). Throws
/// `InputError` as read_model.
[[nodiscard]] std::string restart_document(const std::filesystem::path& file,
                                           std::span<const std::string> overrides = {});
/// The same of a model given as text.
[[nodiscard]] std::string restart_document(const ModelText& model, std::span<const std::string> overrides = {});

}  // namespace catena::io
