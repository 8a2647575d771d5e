// run_process behind an interface, so code that runs builds and workloads (the evaluator, the
// scheduler above it) can be tested with a fake that answers from a script instead of
// starting processes (tests/unit/fake_command_runner.hpp).
#pragma once

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
    /// run_process(spec).
    ProcessResult run(const ProcessSpec& spec) override { return run_process(spec); }
};

/// A process-wide RealProcessRunner (the default of everything that takes a runner).
inline ProcessRunner& real_process_runner() {
    static RealProcessRunner runner;
    return runner;
}

}  // namespace routetune
