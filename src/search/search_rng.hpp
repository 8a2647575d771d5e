// A seeded random source whose draws are the same on every platform: std::mt19937_64 for the
// bits, and our own uniform/normal transforms (the standard distributions are not specified
// bit for bit, so they could differ between library versions and break --continue).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace routetune {

/// Deterministic random draws for strategies.
class SearchRng {
public:
    /// A stream for (seed, stream): different streams of one seed are independent.
    explicit SearchRng(std::uint64_t seed, std::uint64_t stream = 0)
        : engine_(mix(seed ^ mix(stream + 0x9e3779b97f4a7c15ULL))) {}

    /// 64 random bits.
    std::uint64_t bits() { return engine_(); }
    /// Uniform in [0, n) without modulo bias; n > 0.
    std::uint64_t below(std::uint64_t n) {
        std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
        std::uint64_t x = engine_();
        while (x >= limit) x = engine_();
        return x % n;
    }
    /// Uniform in [0, 1).
    double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
    /// Standard normal (Box-Muller).
    double normal() {
        double u1 = unit();
        double u2 = unit();
        if (u1 < 1e-300) u1 = 1e-300;
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }
    /// A SplitMix64 finaliser: spreads the bits of x.
    static std::uint64_t mix(std::uint64_t x) {
        x += 0x9e3779b97f4a7c15ULL;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    }

private:
    std::mt19937_64 engine_;
};

}  // namespace routetune
