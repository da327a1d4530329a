// Helpers around nlohmann-json: number form, document text and errors that name the place.
#include "platforms/records/json.h"

#include <cmath>

namespace nestvp {

json json_num(double v) {
    if (!std::isfinite(v)) return nullptr;
    if (v == 0) return 0;  // also folds -0
    // Whole numbers below 2^53 are exact as integers.
    if (std::fabs(v) < 9007199254740992.0 && std::trunc(v) == v) {
        if (v > 0) return static_cast<uint64_t>(v);
        return static_cast<int64_t>(v);
    }
    return v;
}

std::string json_number(double v) {
    return json_num(v).dump();
}

std::string json_number(uint64_t v) {
    return std::to_string(v);
}

std::string json_quote(const std::string& s) {
    return json(s).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string json_text(const json& j) {
    return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

json parse_json(const std::string& text, const std::string& what) {
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        // e.byte counts the bytes read, the failing one included: the place is the byte before.
        const size_t at = e.byte == 0 ? 0 : std::min<size_t>(e.byte - 1, text.size());
        unsigned line = 1, col = 1;
        for (size_t i = 0; i < at; ++i) {
            if (text[i] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        // The library's text after its own "line L, column C: " prefix says what was wrong.
        std::string msg = e.what();
        const auto colon = msg.find(": ", msg.find("column"));
        if (colon != std::string::npos) msg = msg.substr(colon + 2);
        throw json_parse_error(what + ":" + std::to_string(line) + ":" + std::to_string(col) +
                               ": " + msg);
    }
}

}  // namespace nestvp
