#include "platforms/config/yaml_guard.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

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
}  // namespace

std::vector<YAML::Node> load_all_yaml_bounded(const std::string& text, double limit_s) {
    struct shared {
        std::mutex m;
        std::condition_variable cv;
        bool done = false;
        std::vector<YAML::Node> docs;
        std::exception_ptr error;
    };
    auto s = std::make_shared<shared>();
    std::thread([s, text] {
        std::vector<YAML::Node> docs;
        std::exception_ptr error;
        try {
            check_documents_advance(text);
            docs = YAML::LoadAll(text);
        } catch (...) {
            error = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(s->m);
        s->docs = std::move(docs);
        s->error = error;
        s->done = true;
        s->cv.notify_all();
    }).detach();
    std::unique_lock<std::mutex> lock(s->m);
    if (!s->cv.wait_for(lock, std::chrono::duration<double>(limit_s), [&] { return s->done; }))
        throw yaml_parse_timeout("the YAML parser did not finish within " +
                                 std::to_string(static_cast<int>(limit_s)) +
                                 " s (yaml-cpp 0.7 loops on some malformed input, e.g. a "
                                 "document that starts with ',')");
    if (s->error) std::rethrow_exception(s->error);
    return std::move(s->docs);
}

}  // namespace nestvp
