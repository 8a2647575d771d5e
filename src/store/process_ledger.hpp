// Process tracking: which process group each pending evaluation of a study runs, noted by the
// writer as each starts, so that the next writer can end what a killed one left running. A
// store that keeps this (a study file on this machine) offers it through
// StudyStore::process_ledger(); a database shared by workers on many machines does not (each
// worker's processes end with its lease).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace routetune {

/// The process a pending evaluation was running when last noted, and who ran it.
struct PendingProcess {
    std::string route_hash;
    std::string owner;             ///< the writer's this_process_tag() ("<pid>-<start ticks>")
    std::int64_t pgid = 0;         ///< 0: none noted
    std::uint64_t pgid_ticks = 0;  ///< the group leader's start time (clock ticks since boot)
};

/// The record of the processes a store's pending evaluations run.
class ProcessLedger {
public:
    virtual ~ProcessLedger() = default;
    /// Notes on route_hash's pending row the process group it runs now (not fsync'ed: it only
    /// matters while this machine is up); nothing when the route has no pending row.
    virtual void note_process(const std::string& route_hash, std::int64_t pgid, std::uint64_t pgid_ticks) = 0;
    /// The pending rows' processes (what a killed writer may have left running), oldest first.
    virtual std::vector<PendingProcess> pending_processes() const = 0;
};

}  // namespace routetune
