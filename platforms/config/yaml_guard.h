#pragma once
// Parsing YAML with a bound on time. yaml-cpp 0.7 (Debian bookworm) never returns on some
// inputs, e.g. a document that starts with ',' (found by fuzzing, tests/fuzz/known-hangs). The
// parse runs on a worker thread; if it has not finished after `limit_s`, yaml_parse_timeout is
// thrown and the worker is left behind (the caller reports the error; the process ends soon).
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
