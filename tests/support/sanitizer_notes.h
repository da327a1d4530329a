#pragma once
// The sanitizer runtime's own notes on stderr, removed before a test reads a command's messages.
//
// An exception thrown on a SystemC coroutine stack makes ASan's __asan_handle_no_return see a
// stack it does not know; whether it warns depends on where ASLR put that stack. The three
// lines it prints are not the program's output, so tests of "stderr starts with X" skip them.
#include <sstream>
#include <string>

namespace nestvp::test {

inline std::string without_sanitizer_notes(const std::string& err) {
    if (err.find("ASan is ignoring requested __asan_handle_no_return") == std::string::npos)
        return err;
    std::istringstream in(err);
    std::string line, kept;
    while (std::getline(in, line)) {
        const bool note =
            line.find("ASan is ignoring requested __asan_handle_no_return") != std::string::npos ||
            line == "False positive error reports may follow" ||
            line.rfind("For details see https://github.com/google/sanitizers/", 0) == 0;
        if (!note) kept += line + "\n";
    }
    if (!err.empty() && err.back() != '\n' && !kept.empty()) kept.pop_back();
    return kept;
}

}  // namespace nestvp::test
