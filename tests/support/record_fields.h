#pragma once
// Run records compared field by field (tests/determinism): every leaf as (dotted path, value as
// written), and the first difference named with both values.
#include <string>
#include <utility>
#include <vector>

namespace nestvp::test {

using field_list = std::vector<std::pair<std::string, std::string>>;  // path, value as text

// The leaves of a JSON document in document order, without the paths in `skip`.
field_list comparable_fields(const std::string& json, const std::string& what,
                             const std::vector<std::string>& skip);

// "" if equal; otherwise names the first differing field with both values, then the others.
std::string differences(const field_list& a, const std::string& an, const field_list& b,
                        const std::string& bn);

// Fields of a run record that measure the host or the kernel, not the simulated machine:
// wall_seconds, the tool's version and commit, and sc_events (SystemC's work, which a faster
// process structure changes without changing a result).
const std::vector<std::string>& host_fields();

}  // namespace nestvp::test
