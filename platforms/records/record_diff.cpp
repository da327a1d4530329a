// Field-by-field comparison of two run records.
#include "platforms/records/record_diff.h"

namespace nestvp {

bool host_dependent_field(const std::string& key) {
    return key == "wall_seconds" || key == "tool";
}

namespace {

std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
}

std::string diff(const json& a, const json& b, const std::string& path) {
    if (a.is_object() && b.is_object()) {
        for (const auto& kv : a.items()) {
            if (path.empty() && host_dependent_field(kv.key())) continue;
            const auto it = b.find(kv.key());
            if (it == b.end()) return join(path, kv.key()) + ": missing in the new record";
            const std::string d = diff(kv.value(), *it, join(path, kv.key()));
            if (!d.empty()) return d;
        }
        for (const auto& kv : b.items())
            if (!a.contains(kv.key()) && !(path.empty() && host_dependent_field(kv.key())))
                return join(path, kv.key()) + ": not in the old record";
        return {};
    }
    if (a.is_array() && b.is_array()) {
        for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
            const std::string d = diff(a[i], b[i], path + "[" + std::to_string(i) + "]");
            if (!d.empty()) return d;
        }
        if (a.size() != b.size())
            return path + ": " + std::to_string(a.size()) + " items != " + std::to_string(b.size());
        return {};
    }
    // Compared as written, so 1 and 1.0 differ just as their bytes do.
    const std::string ta = a.dump(), tb = b.dump();
    if (ta != tb) return (path.empty() ? "(top level)" : path) + ": " + ta + " != " + tb;
    return {};
}

}  // namespace

std::string first_record_difference(const json& old_doc, const json& new_doc) {
    return diff(old_doc, new_doc, "");
}

std::string record_text_difference(const std::string& old_text, const std::string& what,
                                   const json& new_doc) {
    const json old_doc = parse_json(old_text, what);
    const std::string d = first_record_difference(old_doc, new_doc);
    if (!d.empty()) return d;
    json same = new_doc;
    for (const auto& kv : old_doc.items())
        if (host_dependent_field(kv.key())) same[kv.key()] = kv.value();
    const std::string text = json_text(same);
    if (text == old_text) return {};
    size_t at = 0;
    while (at < text.size() && at < old_text.size() && text[at] == old_text[at]) ++at;
    return "the same fields, but the text differs from byte " + std::to_string(at) +
           " (was the record rewritten by another tool?)";
}

}  // namespace nestvp
