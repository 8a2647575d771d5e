#include "govern/retirement.hpp"

#include "govern/audit_log.hpp"
#include "govern/lock_seal.hpp"
#include "routetune/error.hpp"

namespace routetune {

namespace fs = std::filesystem;

Lock retire_lock(const LockStanding& standing, const fs::path& lock_file, const RetireRequest& request) {
    if (!standing.readable() || !standing.lock)
        throw UsageError(standing.problem.empty() ? lock_file.string() + ": not a lock" : standing.problem);
    Lock lock = *standing.lock;
    if (lock.is_retired())
        throw UsageError(lock_file.string() + " was retired on " + lock.retired.time + " by " + lock.retired.actor +
                         " (" + lock.retired.reason + "); promote again to put a route in force");
    if (request.reason.find_first_not_of(" \t\r\n") == std::string::npos)
        throw UsageError("retire " + lock_file.string() + ": --reason TEXT is required (why the route is retired)");
    if (!lock.signature.empty() && !request.signer)
        throw UsageError(lock_file.string() + " is signed by " + lock.signer +
                         "; retire rewrites it: give --sign KEY with --allowed-signers FILE");
    AuditEntry entry = make_audit_entry("retired", lock_file.string(), request.command);
    std::string account = entry.actor;
    if (request.signer) {
        entry.actor = request.signer->principal;
        lock.signer = request.signer->principal;
    }
    lock.retired = LockRetirement{entry.time, entry.actor, request.reason};
    entry.evidence = {{"lock_body_sha256", lock_body_sha256(lock)}, {"route", lock.route}, {"reason", request.reason}};
    if (request.signer) entry.evidence["account"] = account;
    entry.proposed = lock.route;
    entry.result = "retired " + lock.route + "; builds use the default route";
    AuditAppend written = append_audit_entry(standing.audit_log, entry);
    seal_lock(lock, written, lock_file, request.signer ? &*request.signer : nullptr);
    write_lock(lock_file, lock);
    return lock;
}

}  // namespace routetune
