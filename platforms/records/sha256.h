#pragma once
// SHA-256 (OpenSSL EVP) of file contents, as run records name the platform file they ran.
#include <string>

namespace nestvp {

// Lower-case hex digest of bytes.
std::string sha256_hex(const std::string& bytes);

}  // namespace nestvp
