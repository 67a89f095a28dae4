#pragma once
/// Small helpers shared by the output writers (VTK, CSV, summary): the output directory, files
/// written without following symbolic links, files replaced atomically, and numbers written so
/// that they read back bit for bit.
///
/// No writer writes through a name it finds in the directory: a file is written as a new inode
/// (the name unlinked first, then created with O_EXCL | O_NOFOLLOW), so a symbolic link planted
/// under one of Catena's names is replaced by a regular file and its target, which may lie outside
/// the directory, is never touched.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace catena::io {

/// A file of the output could not be written (or its directory made): the path and the system's
/// reason are in the message. The commands answer it with their output-failure exit code.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Creates `directory` and its parents if they do not exist. Throws OutputError naming the
/// directory when it cannot be created or exists as something other than a directory.
void create_output_directory(const std::filesystem::path& directory);

/// Opens `file` for writing as a new, empty regular file and returns its descriptor (the caller
/// closes it): whatever had that name (a file, a symbolic link) is unlinked first, and the file
/// is created with O_EXCL | O_NOFOLLOW, so nothing is ever written through a link. Throws
/// OutputError with the path and the system's reason (a directory under that name: "Is a
/// directory").
[[nodiscard]] int create_new_file(const std::filesystem::path& file);

/// Writes `content` as the new regular file `file` (create_new_file); a file left incomplete
/// (disk full) is removed before OutputError is thrown, so no partial file stays under the name.
void write_new_file(const std::filesystem::path& file, std::string_view content);

/// Replaces `file` by `content` atomically: writes `<file>.tmp` next to it (write_new_file), then
/// renames it over `file`, so a reader (ParaView polling an index, a crash mid-write) sees either
/// the old or the new content, never a partial one; a symbolic link under either name is replaced,
/// not followed. Throws OutputError naming the file on failure, and leaves no `.tmp` behind.
void replace_file_atomically(const std::filesystem::path& file, std::string_view content);

/// Writes `content` over the existing regular file `file` in place, followed by `pad` up to the
/// file's size, when the file is at least that long and has no other name: it takes none of the
/// disk's free blocks (a full disk; the summary's reserved room, io/summary_writer.hpp). Not atomic:
/// a write that fails anyway removes the file and throws OutputError. Returns false, and writes
/// nothing, when the file is missing, shorter, a link, or not a regular file.
[[nodiscard]] bool overwrite_within_size(const std::filesystem::path& file, std::string_view content, char pad);

/// `value` as printf's "%.17g" in the C locale, whatever the process locale: 17 significant
/// digits, enough for every double to read back exactly (strtod, Python float, NumPy).
/// Not-a-number is written "nan" (never "-nan"), infinities "inf" and "-inf".
[[nodiscard]] std::string format_double(double value);

}  // namespace catena::io
