#include "util/clock.hpp"

#include <chrono>

namespace routetune {

double RealClock::now_s() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Clock& real_clock() {
    static RealClock clock;
    return clock;
}

}  // namespace routetune
