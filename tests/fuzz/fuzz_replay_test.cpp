// Replays every file of tests/fuzz/corpus/<target>/ and tests/fuzz/crashes/<target>/ through
// the entry function the libFuzzer target runs (fuzz_entries.h), so the corpus and every crash
// ever found are regression tests in the normal (gcc) build. An entry aborts on a broken
// invariant, which fails this test with the message on stderr.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_entries.h"

namespace nestvp {
namespace {

namespace fs = std::filesystem;

// Files of corpus/<target> and crashes/<target>, sorted so a failure names the same file
// every time.
std::vector<fs::path> inputs(const std::string& target) {
    std::vector<fs::path> files;
    for (const char* kind : {"corpus", "crashes"}) {
        const fs::path dir = fs::path(NESTVP_SOURCE_DIR) / "tests/fuzz" / kind / target;
        if (!fs::is_directory(dir)) continue;
        for (const auto& e : fs::directory_iterator(dir))
            if (e.is_regular_file()) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

size_t replay(const std::string& target, int (*entry)(const uint8_t*, size_t)) {
    const std::vector<fs::path> files = inputs(target);
    for (const fs::path& f : files) {
        std::ifstream in(f, std::ios::binary);
        const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
        SCOPED_TRACE(f.string());
        std::fprintf(stderr, "replay %s\n", f.c_str());  // names the file if the entry aborts
        EXPECT_EQ(entry(bytes.data(), bytes.size()), 0);
    }
    return files.size();
}

// Each target has a corpus: an empty folder would make the replay vacuous.
TEST(FuzzReplay, GsbDecoder) {
    EXPECT_GE(replay("gsb", fuzz::gsb_decoder), 10u);
}
TEST(FuzzReplay, L0Hcall) {
    EXPECT_GE(replay("l0", fuzz::l0_hcall), 10u);
}
TEST(FuzzReplay, PlatformLoader) {
    EXPECT_GE(replay("platform", fuzz::platform_loader), 10u);
}
TEST(FuzzReplay, StimLoader) {
    EXPECT_GE(replay("stim", fuzz::stim_loader), 10u);
}

}  // namespace
}  // namespace nestvp
