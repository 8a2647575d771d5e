// A stream of numbers that can be read again from the start: an output being parsed where it
// lies (eval/output_reader.hpp), or a list. Loss metrics read outputs through it, so comparing
// two outputs needs no copy of their values.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace routetune {

/// A restartable stream of numbers.
class ValueSource {
public:
    virtual ~ValueSource() = default;
    /// The next number into value: true; false at the end, or at a value that cannot be read
    /// (error() then says why).
    virtual bool next(double& value) = 0;
    /// Why next() stopped early; empty at a clean end.
    virtual const std::string& error() const = 0;
    /// Back to the first number.
    virtual void restart() = 0;
};

/// The numbers of a list (which must outlive the source).
class ListValues final : public ValueSource {
public:
    /// Streams values.
    explicit ListValues(const std::vector<double>& values) : values_(values) {}
    /// The next listed number.
    bool next(double& value) override {
        if (position_ >= values_.size()) return false;
        value = values_[position_++];
        return true;
    }
    /// Always empty: a list has no unreadable value.
    const std::string& error() const override { return error_; }
    /// Back to the first number.
    void restart() override { position_ = 0; }

private:
    const std::vector<double>& values_;
    std::size_t position_ = 0;
    std::string error_;
};

}  // namespace routetune
