// A first run below a later one (a load that happened elsewhere) is read as the later run: the
// estimate never prices a first run as cheaper than any other.
#include "eval/run_cost.hpp"

#include <algorithm>

namespace routetune {

RunCost run_cost(const std::map<std::string, double>& repeat_s, const std::map<std::string, double>& first_s) {
    RunCost cost;
    for (const auto& [name, seconds] : repeat_s) {
        auto first = first_s.find(name);
        cost.repeat_s += seconds;
        cost.first_s += std::max(first == first_s.end() ? seconds : first->second, seconds);
    }
    return cost;
}

}  // namespace routetune
