// Uniform random search without repeats. The baseline comes first; then a fixed sequence of
// uniform draws from the product (a mixed-radix index below the space's size when it fits in
// 64 bits, else one uniform choice per knob), generated from the seed. Each call regenerates
// the sequence from its start and skips the points already observed, so after an interruption
// the same points follow. When draws stop finding new points (a nearly exhausted small
// space), the remaining points are taken in index order from a seeded offset.
#include <unordered_set>

#include "search/search_rng.hpp"
#include "search/search_space.hpp"
#include "search/strategies.hpp"

namespace routetune {

namespace {

class RandomStrategy : public Strategy {
public:
    RandomStrategy(const Expression& expression, const StrategyOptions& options)
        : space_(expression), options_(options) {
        BigCount size = space_.size();
        if (size.fits_u64()) size_ = size.to_u64();
    }

    std::string name() const override { return "random"; }

    std::vector<Route> propose(const SearchHistory& history, std::size_t max_count) override {
        std::vector<Route> out;
        PointHistory taken(space_, history);
        std::unordered_set<Point, PointHash> chosen;
        auto accept = [&](Point point) {
            if (taken.contains(point) || !chosen.insert(point).second) return false;
            out.push_back(space_.route(point));
            return true;
        };
        if (max_count == 0) return out;
        accept(space_.baseline());
        SearchRng rng(options_.seed, 0x72616e646f6dULL);
        std::size_t attempts = 64 * (taken.taken.size() + max_count) + 1024;
        for (std::size_t i = 0; i < attempts && out.size() < max_count; ++i) accept(draw(rng));
        if (out.size() < max_count && size_ != 0 && size_ <= (std::uint64_t{1} << 22)) {
            std::uint64_t offset = rng.below(size_);
            for (std::uint64_t i = 0; i < size_ && out.size() < max_count; ++i)
                accept(space_.decode((offset + i) % size_));
        }
        return out;
    }

    std::string phase_of(const Route&, const SearchHistory&) const override { return "random"; }

private:
    Point draw(SearchRng& rng) const {
        if (size_ != 0) return space_.decode(rng.below(size_));
        Point point(space_.dimensions());
        for (std::size_t d = 0; d < point.size(); ++d) point[d] = static_cast<std::uint32_t>(rng.below(space_.choices(d)));
        return point;
    }

    SearchSpace space_;
    StrategyOptions options_;
    std::uint64_t size_ = 0;  // 0: does not fit in 64 bits
};

}  // namespace

std::unique_ptr<Strategy> make_random_strategy(const Expression& expression, const StrategyOptions& options) {
    return std::make_unique<RandomStrategy>(expression, options);
}

}  // namespace routetune
