#pragma once
// JSON through nlohmann-json: ordered objects (keys stay in the order written, so records
// diff cleanly) and a few helpers that fix the number form and name the place of errors.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace nestvp {

using json = nlohmann::ordered_json;

class json_parse_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The value a double is stored as: null if not finite, an integer if it is whole (so 1500
// prints as "1500", not "1500.0"), else the double (shortest round-trip form).
json json_num(double v);
// The text of json_num(v): the one number form of JSON, CSV and SVG data.
std::string json_number(double v);
std::string json_number(uint64_t v);
// Escapes s as a JSON string literal, quotes included.
std::string json_quote(const std::string& s);
// Indented document text (two spaces a level) with a final newline.
std::string json_text(const json& j);

// Parses text; syntax errors name `what` (usually the file) and the line:column.
json parse_json(const std::string& text, const std::string& what);

}  // namespace nestvp
