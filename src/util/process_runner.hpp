// run_process behind an interface, so code that runs builds and workloads can be tested with
// a fake that answers from a script instead of starting processes.
#pragma once

#include <functional>
#include <mutex>
#include <vector>

#include "util/process.hpp"

namespace routetune {

/// Runs one process to completion; implementations are thread-safe.
class ProcessRunner {
public:
    virtual ~ProcessRunner() = default;
    /// Runs spec and reports how it ended (never throws for the child's behaviour).
    virtual ProcessResult run(const ProcessSpec& spec) = 0;
};

/// The real thing: run_process.
class RealProcessRunner : public ProcessRunner {
public:
    ProcessResult run(const ProcessSpec& spec) override { return run_process(spec); }
};

/// A fake for tests: records every spec and answers with respond(spec) (by default an exit
/// code 0 with no output).
class FakeProcessRunner : public ProcessRunner {
public:
    using Responder = std::function<ProcessResult(const ProcessSpec&)>;

    FakeProcessRunner() = default;
    explicit FakeProcessRunner(Responder respond) : respond_(std::move(respond)) {}

    ProcessResult run(const ProcessSpec& spec) override {
        {
            std::lock_guard lock(mutex_);
            calls_.push_back(spec);
        }
        if (respond_) return respond_(spec);
        ProcessResult result;
        result.outcome = ProcessOutcome::Exited;
        result.exit_code = 0;
        return result;
    }

    /// Every spec run so far, in call order.
    std::vector<ProcessSpec> calls() const {
        std::lock_guard lock(mutex_);
        return calls_;
    }

private:
    Responder respond_;
    mutable std::mutex mutex_;
    std::vector<ProcessSpec> calls_;
};

/// A ProcessResult for fakes: exited with code, the given stdout and stderr.
inline ProcessResult exited_with(int code, std::string out = {}, std::string err = {}) {
    ProcessResult result;
    result.outcome = ProcessOutcome::Exited;
    result.exit_code = code;
    result.out = std::move(out);
    result.err = std::move(err);
    return result;
}

}  // namespace routetune
