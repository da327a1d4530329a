#pragma once
// Whether a re-run reproduced a record: the two documents compared field by field, apart from
// the fields that depend on the host or the build (wall_seconds, tool).
#include <string>

#include "platforms/records/json.h"

namespace nestvp {

// The top-level fields a re-run may change without the result changing.
bool host_dependent_field(const std::string& key);
// The path of the first field (document order of `old_doc`) whose value differs, e.g.
// "metrics.counters.l1.blocks: 12 != 13"; "" when they agree.
std::string first_record_difference(const json& old_doc, const json& new_doc);
// The same check on the old record's bytes: the fields first, then the text of new_doc (with
// the old record's host-dependent fields) must equal old_text byte for byte.
std::string record_text_difference(const std::string& old_text, const std::string& what,
                                   const json& new_doc);

}  // namespace nestvp
