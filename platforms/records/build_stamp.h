#pragma once
// The tool version and git commit embedded at build time ("unknown" outside a git checkout).
#include <string>

namespace nestvp {

std::string build_version();   // "0.1.0"
std::string build_commit();    // `git rev-parse --short HEAD`
std::string build_describe();  // `git describe --always --dirty`

}  // namespace nestvp
