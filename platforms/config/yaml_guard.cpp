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

std::string yaml_message(const YAML::Exception& e) {
    std::string out;
    for (const char ch : e.msg) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x20 && c != 0x7f) {
            out += ch;
            continue;
        }
        static const char hex[] = "0123456789abcdef";
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
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

}  // namespace nestvp
