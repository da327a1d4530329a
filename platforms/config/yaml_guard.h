#pragma once
// Parsing YAML safely with yaml-cpp 0.7 (Debian bookworm), whose LoadAll() never returns on
// input whose first token is ',' (found by fuzzing; jbeder/yaml-cpp#1040, fixed upstream by
// PR #1319): the parser reports a null document without consuming the token, and LoadAll
// appends null documents for ever, growing memory.
// 1. The input is bounded before yaml-cpp sees it: at most k_yaml_max_bytes and at most
//    k_yaml_max_depth nested '[' / '{' (yaml-cpp recurses once per level). Over either limit
//    is a yaml_limit_error; no thread or process is left running.
// 2. A pass over the parser's events checks that every document starts further on than the
//    one before; a document that does not is a YAML::ParserException at that place.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace nestvp {

constexpr size_t k_yaml_max_bytes = 4u << 20;  // platform and stimulus files are kilobytes
constexpr size_t k_yaml_max_depth = 64;

// Says what limit the input broke: "input larger than ...", "input nested deeper than ...".
class yaml_limit_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// YAML::LoadAll on bounded input; YAML::Exception passes through unchanged.
std::vector<YAML::Node> load_all_yaml_bounded(const std::string& text);

// The offset of the first byte of `s` that is not part of a well-formed UTF-8 sequence
// (RFC 3629), or std::string::npos.
size_t first_non_utf8(const std::string& s);
// `s` for a message: control bytes (C0, DEL, C1) and bytes that are not UTF-8 written as \xNN,
// so that an error names the byte instead of printing it raw. config_error and stim_error
// apply it to their messages.
std::string printable(const std::string& s);

// An unquoted, untagged scalar: the only form a number, a bool or a name is read from.
bool is_plain_scalar(const YAML::Node& n);

// How a scalar reads in a message: 'x', the quoted string "x" (write it unquoted),
// 'x' tagged !!int (write it without a tag). Numbers, names and flags are read from plain
// scalars only.
std::string describe_scalar(const YAML::Node& n);

// A node's explicit tag as written (!!int, !foo), or "" when it has none: plain scalars carry
// yaml-cpp's non-specific "?", quoted ones "!".
std::string explicit_tag(const YAML::Node& n);

}  // namespace nestvp
