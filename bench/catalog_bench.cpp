// Catalog discovery time: cold (cache disabled: -Q --help runs, parsing, batch probing) and
// cached (identity check + cache file read), each repeated, printing median, min and max.
// Usage: catalog_bench [COMPILER] [REPETITIONS] [BASE FLAGS...]   (default: gcc 5 -O2)
#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "adapters/gcc_adapter.hpp"

namespace {

using routetune::AdapterOptions;
using routetune::GccAdapter;

struct Sample {
    std::vector<double> seconds;
    std::size_t knobs = 0;
    std::size_t compiles = 0;
};

void print(const char* what, Sample sample) {
    std::sort(sample.seconds.begin(), sample.seconds.end());
    std::size_t n = sample.seconds.size();
    double median = n % 2 ? sample.seconds[n / 2] : (sample.seconds[n / 2 - 1] + sample.seconds[n / 2]) / 2;
    std::printf("%-8s n=%zu  median %8.1f ms  min %8.1f ms  max %8.1f ms  knobs %zu", what, n, median * 1e3,
                sample.seconds.front() * 1e3, sample.seconds.back() * 1e3, sample.knobs);
    if (sample.compiles) std::printf("  probe compiles %zu", sample.compiles);
    std::printf("\n");
}

// Each repetition uses a new adapter, as a new routetune process would.
Sample measure(const AdapterOptions& options, int repetitions) {
    Sample sample;
    for (int i = 0; i < repetitions; ++i) {
        GccAdapter adapter(options);
        auto start = std::chrono::steady_clock::now();
        auto catalog = adapter.discover();
        sample.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        sample.knobs = catalog.knobs().size();
        sample.compiles = adapter.last_probe().compiles;
    }
    return sample;
}

}  // namespace

int main(int argc, char** argv) {
    AdapterOptions options;
    options.compiler = argc > 1 ? argv[1] : "gcc";
    int repetitions = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    for (int i = 3; i < argc; ++i) options.base_flags.push_back(argv[i]);
    if (argc <= 3) options.base_flags = {"-O2"};
    options.cache_dir = std::filesystem::temp_directory_path() / ("routetune-catalog-bench-" + std::to_string(::getpid()));
    std::string base;
    for (const auto& flag : options.base_flags) base += " " + flag;
    std::printf("compiler %s, base flags:%s, %d repetitions\n", options.compiler.c_str(), base.c_str(), repetitions);

    AdapterOptions cold = options;
    cold.use_cache = false;
    print("cold", measure(cold, repetitions));
    GccAdapter(options).discover();  // fills the cache
    print("cached", measure(options, repetitions));
    std::filesystem::remove_all(options.cache_dir);
    return 0;
}
