#pragma once
// A small JSON writer and reader for the run records nestvp writes and reads back (compare,
// merge). Writing is deterministic: keys in the order the caller gives, numbers in the
// shortest form that reads back to the same value (RFC 8259 §6), non-finite numbers as null.
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace nestvp {

// Escapes s as a JSON string literal, quotes included (RFC 8259 §7).
std::string json_quote(const std::string& s);
// Shortest round-trip decimal form of v; "null" if v is not finite.
std::string json_number(double v);
std::string json_number(uint64_t v);

// Builds indented JSON text (two spaces a level) one member at a time. Inside an array the
// key arguments are ignored: members become elements.
class json_writer {
public:
    void begin_object(const std::string& key = {});
    void end_object();
    void begin_array(const std::string& key = {});
    void end_array();
    void element(const std::string& json_text);  // one array element, already JSON
    void member(const std::string& key, const std::string& value);  // string value
    void member(const std::string& key, const char* value) { member(key, std::string(value)); }
    void member(const std::string& key, double value);
    void member(const std::string& key, uint64_t value);
    void member(const std::string& key, bool value);
    void raw_member(const std::string& key, const std::string& json_text);
    std::string str() const { return m_out + "\n"; }

private:
    void key_prefix(const std::string& key);
    void close(char bracket);
    std::string m_out;
    std::vector<bool> m_first;     // per open object or array: nothing written yet
    std::vector<bool> m_in_array;  // per open object or array: it is an array
};

class json_parse_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A parsed JSON value. Objects keep their member order.
struct json_value {
    enum kind_t { null_v, bool_v, number_v, string_v, array_v, object_v } kind = null_v;
    bool b = false;
    double num = 0;
    bool is_uint = false;  // the literal was a non-negative integer that fits uint64
    uint64_t u = 0;
    std::string str;
    std::vector<json_value> items;
    std::vector<std::pair<std::string, json_value>> members;

    const json_value* find(const std::string& key) const;  // nullptr if absent or not an object
};

// Parses text; errors name `what` (usually the file) and the line:column.
json_value parse_json(const std::string& text, const std::string& what);

}  // namespace nestvp
