#include "platforms/config/yaml_guard.h"

#include <sstream>

#include <yaml-cpp/eventhandler.h>

namespace nestvp {

namespace {
// Records where the current document starts; nothing else.
class document_marks : public YAML::EventHandler {
public:
    YAML::Mark start;
    void OnDocumentStart(const YAML::Mark& mark) override { start = mark; }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
};

// Step 1 of yaml_guard.h: a document that starts where the previous one did consumed nothing,
// and LoadAll would loop on it.
void check_documents_advance(const std::string& text) {
    std::istringstream in(text);
    YAML::Parser parser(in);
    document_marks marks;
    bool first = true;
    YAML::Mark last;
    while (parser.HandleNextDocument(marks)) {
        if (!first && marks.start.pos == last.pos)
            throw YAML::ParserException(marks.start,
                                        "a token that starts no node, e.g. ',' outside [] or {}");
        first = false;
        last = marks.start;
    }
}

// Step 1 of yaml_guard.h: flow nesting counted outside quotes and comments (a bracket inside
// a plain scalar may over-count; that only refuses absurd input earlier).
void check_size_and_depth(const std::string& text) {
    if (text.size() > k_yaml_max_bytes)
        throw yaml_limit_error("input larger than " + std::to_string(k_yaml_max_bytes >> 20) +
                               " MiB (" + std::to_string(text.size()) + " bytes)");
    size_t depth = 0;
    char quote = 0;
    bool comment = false;
    for (char c : text) {
        if (comment) {
            comment = c != '\n';
        } else if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '#') {
            comment = true;
        } else if (c == '[' || c == '{') {
            if (++depth > k_yaml_max_depth)
                throw yaml_limit_error("input nested deeper than " +
                                       std::to_string(k_yaml_max_depth) + " '[' or '{' levels");
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
}
}  // namespace

std::vector<YAML::Node> load_all_yaml_bounded(const std::string& text) {
    check_size_and_depth(text);
    check_documents_advance(text);
    return YAML::LoadAll(text);
}

namespace {
// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629, table 3-7 of Unicode), or 0.
size_t utf8_length_at(const std::string& s, size_t i) {
    const auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = at(i);
    if (c < 0x80) return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if (i + n > s.size() || at(i + 1) < lo || at(i + 1) > hi) return 0;
    for (size_t k = 2; k < n; ++k)
        if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
    return n;
}
}  // namespace

size_t first_non_utf8(const std::string& s) {
    for (size_t i = 0; i < s.size();) {
        const size_t n = utf8_length_at(s, i);
        if (n == 0) return i;
        i += n;
    }
    return std::string::npos;
}

std::string printable(const std::string& s) {
    static const char hex[] = "0123456789abcdef";
    std::string out;
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        const size_t n = utf8_length_at(s, i);
        const bool c1 = n == 2 && c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0;
        if ((n > 1 && !c1) || (n == 1 && c >= 0x20 && c != 0x7f)) {
            out.append(s, i, n);
            i += n;
            continue;
        }
        for (size_t k = 0; k < (c1 ? 2 : 1); ++k, ++i) {
            const auto b = static_cast<unsigned char>(s[i]);
            out += "\\x";
            out += hex[b >> 4];
            out += hex[b & 15];
        }
    }
    return out;
}

bool is_plain_scalar(const YAML::Node& n) {
    return n.IsScalar() && n.Tag() == "?";
}

std::string explicit_tag(const YAML::Node& n) {
    const std::string& t = n.Tag();
    if (t.empty() || t == "?" || t == "!") return "";
    static const std::string core = "tag:yaml.org,2002:";
    if (t.compare(0, core.size(), core) == 0) return "!!" + t.substr(core.size());
    return t[0] == '!' ? t : "!<" + t + ">";
}

std::string describe_scalar(const YAML::Node& n) {
    const std::string& text = n.Scalar();
    if (n.Tag() == "!") return "the quoted string \"" + text + "\" (write it unquoted)";
    if (!is_plain_scalar(n))
        return "'" + text + "' tagged " + explicit_tag(n) + " (write it without a tag)";
    return "'" + text + "'";
}

}  // namespace nestvp
