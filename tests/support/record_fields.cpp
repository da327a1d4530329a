#include "tests/support/record_fields.h"

#include <algorithm>

#include "platforms/records/json.h"

namespace nestvp::test {
namespace {

void flatten(const json& v, const std::string& path, field_list& out) {
    const std::string prefix = path.empty() ? path : path + ".";
    if (v.is_object()) {
        for (const auto& m : v.items()) flatten(m.value(), prefix + m.key(), out);
    } else if (v.is_array()) {
        for (size_t i = 0; i < v.size(); ++i) flatten(v[i], prefix + std::to_string(i), out);
    } else {
        out.emplace_back(path, v.dump());
    }
}

bool skipped(const std::string& path, const std::vector<std::string>& skip) {
    for (const auto& s : skip)
        if (path == s || path.rfind(s + ".", 0) == 0) return true;
    return false;
}

}  // namespace

field_list comparable_fields(const std::string& json_text, const std::string& what,
                             const std::vector<std::string>& skip) {
    field_list all, kept;
    flatten(parse_json(json_text, what), "", all);
    for (auto& f : all)
        if (!skipped(f.first, skip)) kept.push_back(std::move(f));
    return kept;
}

std::string differences(const field_list& a, const std::string& an, const field_list& b,
                        const std::string& bn) {
    std::vector<std::string> diffs;
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        if (i >= a.size()) {
            diffs.push_back("field " + b[i].first + " only in " + bn);
        } else if (i >= b.size()) {
            diffs.push_back("field " + a[i].first + " only in " + an);
        } else if (a[i].first != b[i].first) {
            diffs.push_back("field " + a[i].first + " in " + an + " where " + bn + " has " +
                            b[i].first);
            break;  // the layouts diverge: every later pair would differ
        } else if (a[i].second != b[i].second) {
            diffs.push_back("field " + a[i].first + ": " + an + "=" + a[i].second + " " + bn + "=" +
                            b[i].second);
        }
    }
    if (diffs.empty()) return "";
    std::string out = "first differing " + diffs[0];
    for (size_t i = 1; i < diffs.size(); ++i)
        out += (i == 1 ? "\nother differences:\n  " : "\n  ") + diffs[i];
    return out;
}

const std::vector<std::string>& host_fields() {
    static const std::vector<std::string> f = {"wall_seconds", "tool", "sc_events"};
    return f;
}

}  // namespace nestvp::test
