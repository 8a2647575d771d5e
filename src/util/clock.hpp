// The clock behind an interface, so timing logic can be tested with a fake that only moves
// when told to.
#pragma once

namespace routetune {

/// A monotonic clock in seconds from an arbitrary origin.
class Clock {
public:
    virtual ~Clock() = default;
    /// Seconds since the clock's origin; never decreases.
    virtual double now_s() const = 0;
};

/// std::chrono::steady_clock in seconds.
class RealClock : public Clock {
public:
    double now_s() const override;
};

/// A clock for tests: it shows the time it was set to and advances only when told.
class FakeClock : public Clock {
public:
    explicit FakeClock(double start_s = 0) : now_(start_s) {}
    double now_s() const override { return now_; }
    /// Moves the time forward by seconds (negative values are ignored: a clock never goes back).
    void advance(double seconds) {
        if (seconds > 0) now_ += seconds;
    }
    /// Moves the time forward to time_s (an earlier time is ignored).
    void advance_to(double time_s) {
        if (time_s > now_) now_ = time_s;
    }

private:
    double now_;
};

/// A process-wide RealClock.
Clock& real_clock();

}  // namespace routetune
