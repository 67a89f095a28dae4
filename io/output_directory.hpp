#pragma once
/// Small helpers shared by the output writers (VTK, CSV, summary): the output directory, files
/// replaced atomically, and numbers written so that they read back bit for bit.
#include <filesystem>
#include <string>
#include <string_view>

namespace catena::io {

/// Creates `directory` and its parents if they do not exist. Throws std::runtime_error naming the
/// directory when it cannot be created or exists as something other than a directory.
void create_output_directory(const std::filesystem::path& directory);

/// Replaces `file` by `content` atomically: writes `<file>.tmp` next to it, then renames it over
/// `file`, so a reader (ParaView polling an index, a crash mid-write) sees either the old or the
/// new content, never a partial one. Throws std::runtime_error naming the file on failure.
void replace_file_atomically(const std::filesystem::path& file, std::string_view content);

/// `value` as printf's "%.17g" in the C locale, whatever the process locale: 17 significant
/// digits, enough for every double to read back exactly (strtod, Python float, NumPy).
/// Not-a-number is written "nan" (never "-nan"), infinities "inf" and "-inf".
[[nodiscard]] std::string format_double(double value);

}  // namespace catena::io
