#pragma once
// Parsing YAML safely with yaml-cpp 0.7 (Debian bookworm), whose LoadAll() never returns on
// input whose first token is ',' (found by fuzzing; jbeder/yaml-cpp#1040, fixed upstream by
// PR #1319): the parser reports a null document without consuming the token, and LoadAll
// appends null documents for ever, growing memory.
// 1. A pass over the parser's events first checks that every document starts further on than
//    the one before; a document that does not is a YAML::ParserException at that place.
// 2. As a second line of defence against hangs not yet known, the parse runs on a worker thread
//    and yaml_parse_timeout is thrown if it has not finished after `limit_s` (the worker is then
//    left behind; the caller reports the error and the process ends soon).
#include <stdexcept>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace nestvp {

class yaml_parse_timeout : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// YAML::LoadAll with a time bound; YAML::Exception passes through unchanged.
std::vector<YAML::Node> load_all_yaml_bounded(const std::string& text, double limit_s = 5.0);

}  // namespace nestvp
