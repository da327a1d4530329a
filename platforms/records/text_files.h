#pragma once
// Whole text files, as records, tables, scripts and CSV are written: read in one piece, written
// in one piece (a failed write leaves no cut-short plain file), and checked before a simulation
// so that an output that cannot be written is said before the run, not after it.
#include <string>

namespace nestvp {

// Reads a whole file; throws std::runtime_error naming the path and the OS reason.
std::string read_text_file(const std::string& path);
// Writes a whole file; throws std::runtime_error naming the path and the OS reason. A write
// cut short removes the incomplete plain file (not a device, a link, or a file with another
// link). try_write_text_file returns that message instead ("" when written): a failure after
// a simulation is reported without an exception, because after SystemC's coroutines the
// sanitizer build cannot unpoison an unwound stack and reports false errors.
void write_text_file(const std::string& path, const std::string& text);
std::string try_write_text_file(const std::string& path, const std::string& text);
// Checks, without leaving a file behind, that `path` can be created or overwritten.
// Returns an empty string if so, otherwise the reason (e.g. "No such file or directory").
std::string check_writable_file(const std::string& path);
// Creates a directory (and its parents) if missing; returns an empty string or the reason.
std::string ensure_directory(const std::string& path);

}  // namespace nestvp
