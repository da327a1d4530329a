#pragma once
// The merged configuration as a JSON object, every key of param_schema() in schema order, and
// back. Costs are {"cycles", "source", "range"?}: the figure with its source or assumption.
#include "platforms/config/platform_config.h"
#include "platforms/records/json.h"

namespace nestvp {

json config_json(const platform_config& cfg);
// Every key's provenance (kind, source, range, calibrated_on): the record's "provenance" object.
json provenance_json(const platform_config& cfg);
// Restores the provenance a record kept (run --from).
void provenance_from_json(const json& prov, platform_config& cfg, const std::string& what);
// Defaults, then every key config names; errors name `what` and the key.
platform_config config_from_json(const json& config, const std::string& what);

}  // namespace nestvp
