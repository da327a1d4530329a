// SHA-256 through OpenSSL's EVP interface.
#include "platforms/records/sha256.h"

#include <openssl/evp.h>

#include <cstdio>
#include <stdexcept>

namespace nestvp {

std::string sha256_hex(const std::string& bytes) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 failed");
    std::string hex;
    char buf[3];
    for (unsigned i = 0; i < len; ++i) {
        std::snprintf(buf, sizeof buf, "%02x", md[i]);
        hex += buf;
    }
    return hex;
}

}  // namespace nestvp
