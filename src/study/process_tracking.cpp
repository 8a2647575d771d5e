// The evaluation tag carries the writer's own identity (pid and start time), so a tag of a
// dead writer can never match a process of a live one, and a recycled pgid is recognised by
// its leader's start time (end_group_if_same).
#include "study/process_tracking.hpp"

#include "util/process_tree.hpp"

namespace routetune {

ProcessResult TrackingProcessRunner::run(const ProcessSpec& spec) {
    if (spec.label.empty()) return inner_.run(spec);
    ProcessSpec tracked = spec;
    tracked.env[kEvaluationTagVariable] = this_process_tag() + ":" + spec.label;
    if (ProcessLedger* ledger = ledger_) {
        std::string label = spec.label;
        auto earlier = spec.on_started;
        tracked.on_started = [ledger, label, earlier](int pgid) {
            if (earlier) earlier(pgid);
            ledger->note_process(label, pgid, process_start_ticks(pgid));
        };
    }
    return inner_.run(tracked);
}

std::size_t end_leftover_processes(const StudyStore& store) {
    const ProcessLedger* ledger = store.process_ledger();
    if (!ledger) return 0;
    std::size_t ended = 0;
    for (const PendingProcess& pending : ledger->pending_processes()) {
        if (pending.owner.empty() || pending.owner == this_process_tag()) continue;
        if (pending.pgid > 0 && end_group_if_same(static_cast<pid_t>(pending.pgid), pending.pgid_ticks)) ++ended;
        ended += end_tagged_processes(kEvaluationTagVariable, pending.owner + ":" + pending.route_hash);
    }
    return ended;
}

}  // namespace routetune
