// SHA-256 throughput: hashes one file of random bytes R times with sha256_file (the function
// every artifact, input and lock hash goes through) and prints the median wall time with its
// distribution-free 95% interval and the CPU time. The file is read once first so that every
// repetition hashes it from the page cache.
//   usage: sha256_bench [MB=200] [R=11] [FOLDER=temp]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "util/files.hpp"
#include "util/sha256.hpp"
#include "util/statistics.hpp"

namespace fs = std::filesystem;

namespace {

double cpu_now() {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

void write_random_file(const fs::path& file, std::size_t megabytes) {
    std::mt19937_64 generator(42);
    std::vector<std::uint64_t> block(1 << 17);
    std::ofstream out(file, std::ios::binary);
    for (std::size_t written = 0; written < megabytes; ++written) {
        for (auto& word : block) word = generator();
        out.write(reinterpret_cast<const char*>(block.data()), static_cast<std::streamsize>(block.size() * 8));
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t megabytes = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200;
    int repeats = argc > 2 ? std::atoi(argv[2]) : 11;
    fs::path folder = routetune::make_scratch_folder(argc > 3 ? fs::path(argv[3]) : fs::temp_directory_path(),
                                                     "routetune-sha256-bench-");
    fs::path file = folder / "data.bin";
    write_random_file(file, megabytes);
    std::string first = routetune::sha256_file(file).value_or("(unreadable)");
    std::vector<double> wall, cpu;
    for (int i = 0; i < repeats; ++i) {
        auto start = std::chrono::steady_clock::now();
        double cpu_start = cpu_now();
        std::string digest = routetune::sha256_file(file).value_or("(unreadable)");
        cpu.push_back(cpu_now() - cpu_start);
        wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        if (digest != first) {
            std::fprintf(stderr, "digest changed between repetitions\n");
            return 1;
        }
    }
    routetune::remove_tree_quietly(folder);
    routetune::Interval interval = routetune::median_ci95(wall);
    std::printf("sha256_file of %zu MB, %d repetitions: median %.3f s [%.3f, %.3f] wall, %.3f s CPU; %s\n", megabytes,
                repeats, routetune::median(wall), interval.low, interval.high, routetune::median(cpu), first.c_str());
    return 0;
}
