#pragma once
// Loads a platform file: YAML, `include:` of base files (later keys override), then --set
// overrides. Strict: unknown keys, wrong types and out-of-range values are errors.
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include "platforms/config/platform_config.h"

#include "platforms/config/yaml_guard.h"

namespace nestvp {

// Message form: "file:line:column: key.path: what was expected, what was found".
// The message is printable(): a byte from the input never reaches a terminal raw.
class config_error : public std::runtime_error {
public:
    explicit config_error(const std::string& what) : std::runtime_error(printable(what)) {}
};

// `sets` are "key=value" strings, applied after the file and its includes.
platform_config load_platform(const std::string& path, const std::vector<std::string>& sets = {});
// The merged configuration, every default filled in, as YAML that load_platform accepts.
std::string dump_config(const platform_config& cfg);
// Every key: type, default, unit and description.
void print_params(std::ostream& out);

}  // namespace nestvp
