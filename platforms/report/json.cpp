// JSON writer and reader (RFC 8259) for nestvp run records.
#include "platforms/report/json.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace nestvp {

std::string json_quote(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20) {  // RFC 8259 §7: control characters must be escaped
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    return out + "\"";
}

std::string json_number(double v) {
    if (!std::isfinite(v)) return "null";
    if (v == 0) return "0";  // also folds -0
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
    return std::string(buf, r.ptr);
}

std::string json_number(uint64_t v) {
    return std::to_string(v);
}

void json_writer::key_prefix(const std::string& key) {
    if (m_first.empty()) return;  // the top-level value has no key
    m_out += m_first.back() ? "\n" : ",\n";
    m_first.back() = false;
    m_out.append(2 * m_first.size(), ' ');
    if (!m_in_array.back()) m_out += json_quote(key) + ": ";
}

void json_writer::close(char bracket) {
    const bool empty = m_first.back();
    m_first.pop_back();
    m_in_array.pop_back();
    if (!empty) {
        m_out += "\n";
        m_out.append(2 * m_first.size(), ' ');
    }
    m_out += bracket;
}

void json_writer::begin_object(const std::string& key) {
    key_prefix(key);
    m_out += "{";
    m_first.push_back(true);
    m_in_array.push_back(false);
}

void json_writer::end_object() {
    close('}');
}

void json_writer::begin_array(const std::string& key) {
    key_prefix(key);
    m_out += "[";
    m_first.push_back(true);
    m_in_array.push_back(true);
}

void json_writer::end_array() {
    close(']');
}

void json_writer::element(const std::string& json_text) {
    raw_member({}, json_text);
}

void json_writer::member(const std::string& key, const std::string& value) {
    raw_member(key, json_quote(value));
}
void json_writer::member(const std::string& key, double value) {
    raw_member(key, json_number(value));
}
void json_writer::member(const std::string& key, uint64_t value) {
    raw_member(key, json_number(value));
}
void json_writer::member(const std::string& key, bool value) {
    raw_member(key, value ? "true" : "false");
}
void json_writer::raw_member(const std::string& key, const std::string& json_text) {
    key_prefix(key);
    m_out += json_text;
}

const json_value* json_value::find(const std::string& key) const {
    if (kind != object_v) return nullptr;
    for (const auto& m : members)
        if (m.first == key) return &m.second;
    return nullptr;
}

namespace {

class parser {
public:
    parser(const std::string& text, const std::string& what) : m_s(text), m_what(what) {}

    json_value document() {
        json_value v = value(0);
        skip_ws();
        if (m_pos != m_s.size()) fail("unexpected text after the JSON value");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& msg) const {
        unsigned line = 1, col = 1;
        for (size_t i = 0; i < m_pos && i < m_s.size(); ++i) {
            if (m_s[i] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        throw json_parse_error(m_what + ":" + std::to_string(line) + ":" + std::to_string(col) +
                               ": " + msg);
    }
    void skip_ws() {
        while (m_pos < m_s.size() && (m_s[m_pos] == ' ' || m_s[m_pos] == '\n' ||
                                      m_s[m_pos] == '\r' || m_s[m_pos] == '\t'))
            ++m_pos;
    }
    bool literal(const char* word) {
        const std::string w = word;
        if (m_s.compare(m_pos, w.size(), w) != 0) return false;
        m_pos += w.size();
        return true;
    }
    json_value value(int depth) {
        if (depth > 64) fail("nesting deeper than 64 levels");
        skip_ws();
        if (m_pos >= m_s.size()) fail("unexpected end of input, expected a value");
        json_value v;
        const char c = m_s[m_pos];
        if (c == '{') {
            v.kind = json_value::object_v;
            ++m_pos;
            skip_ws();
            if (m_pos < m_s.size() && m_s[m_pos] == '}') {
                ++m_pos;
                return v;
            }
            for (;;) {
                skip_ws();
                if (m_pos >= m_s.size() || m_s[m_pos] != '"') fail("expected a member name");
                std::string key = string_lit();
                skip_ws();
                if (m_pos >= m_s.size() || m_s[m_pos] != ':') fail("expected ':'");
                ++m_pos;
                v.members.emplace_back(std::move(key), value(depth + 1));
                skip_ws();
                if (m_pos < m_s.size() && m_s[m_pos] == ',') {
                    ++m_pos;
                    continue;
                }
                if (m_pos < m_s.size() && m_s[m_pos] == '}') {
                    ++m_pos;
                    return v;
                }
                fail("expected ',' or '}'");
            }
        }
        if (c == '[') {
            v.kind = json_value::array_v;
            ++m_pos;
            skip_ws();
            if (m_pos < m_s.size() && m_s[m_pos] == ']') {
                ++m_pos;
                return v;
            }
            for (;;) {
                v.items.push_back(value(depth + 1));
                skip_ws();
                if (m_pos < m_s.size() && m_s[m_pos] == ',') {
                    ++m_pos;
                    continue;
                }
                if (m_pos < m_s.size() && m_s[m_pos] == ']') {
                    ++m_pos;
                    return v;
                }
                fail("expected ',' or ']'");
            }
        }
        if (c == '"') {
            v.kind = json_value::string_v;
            v.str = string_lit();
            return v;
        }
        if (literal("true")) {
            v.kind = json_value::bool_v;
            v.b = true;
            return v;
        }
        if (literal("false")) {
            v.kind = json_value::bool_v;
            return v;
        }
        if (literal("null")) return v;
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        fail(std::string("unexpected character '") + c + "'");
    }
    json_value number() {
        const size_t start = m_pos;
        if (m_s[m_pos] == '-') ++m_pos;
        bool integral = true;
        while (m_pos < m_s.size()) {
            const char c = m_s[m_pos];
            if (c >= '0' && c <= '9') {
                ++m_pos;
            } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                integral = false;
                ++m_pos;
            } else {
                break;
            }
        }
        json_value v;
        v.kind = json_value::number_v;
        const char* b = m_s.data() + start;
        const char* e = m_s.data() + m_pos;
        auto r = std::from_chars(b, e, v.num);
        if (r.ec != std::errc() || r.ptr != e) {
            m_pos = start;
            fail("malformed number");
        }
        if (integral && *b != '-') {
            auto ru = std::from_chars(b, e, v.u);
            v.is_uint = ru.ec == std::errc() && ru.ptr == e;
        }
        return v;
    }
    std::string string_lit() {
        ++m_pos;  // opening quote
        std::string out;
        while (m_pos < m_s.size()) {
            const char c = m_s[m_pos++];
            if (c == '"') return out;
            if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_pos >= m_s.size()) break;
            const char e = m_s[m_pos++];
            switch (e) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u': {
                    if (m_pos + 4 > m_s.size()) fail("short \\u escape");
                    unsigned cp = 0;
                    auto r = std::from_chars(m_s.data() + m_pos, m_s.data() + m_pos + 4, cp, 16);
                    if (r.ptr != m_s.data() + m_pos + 4) fail("bad \\u escape");
                    m_pos += 4;
                    // UTF-8 encode (surrogate pairs are not needed for nestvp's own files).
                    if (cp < 0x80) {
                        out += static_cast<char>(cp);
                    } else if (cp < 0x800) {
                        out += static_cast<char>(0xc0 | (cp >> 6));
                        out += static_cast<char>(0x80 | (cp & 0x3f));
                    } else {
                        out += static_cast<char>(0xe0 | (cp >> 12));
                        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
                        out += static_cast<char>(0x80 | (cp & 0x3f));
                    }
                    break;
                }
                default:
                    fail(std::string("unknown escape '\\") + e + "'");
            }
        }
        fail("unterminated string");
    }

    const std::string& m_s;
    const std::string& m_what;
    size_t m_pos = 0;
};

}  // namespace

json_value parse_json(const std::string& text, const std::string& what) {
    return parser(text, what).document();
}

}  // namespace nestvp
