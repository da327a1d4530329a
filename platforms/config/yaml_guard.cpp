#include "platforms/config/yaml_guard.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

namespace nestvp {

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
