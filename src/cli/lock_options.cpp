#include "cli/lock_options.hpp"

#include <iostream>

#include "cli/cli_support.hpp"
#include "govern/verification.hpp"
#include "routetune/error.hpp"

namespace routetune::cli {

void add_lock_options(CLI::App& command, LockOptions& options, bool rewrites) {
    command.add_option("--audit", options.audit, "audit log (default: the one the lock names, else LOCK.audit.jsonl)");
    command.add_option("--allowed-signers", options.allowed_signers,
                       "check the lock's ssh signature against this file (git's allowed-signers format)");
    if (rewrites)
        command.add_option("--sign", options.sign,
                           "sign the rewritten lock with this ssh key (namespace routetune-lock; needs --allowed-signers)");
}

LockStanding judge_lock(const std::string& lock, const LockOptions& options, bool environment) {
    return assess_lock(lock, LockTrust{options.audit, options.allowed_signers, environment});
}

std::optional<LockSigner> lock_signer(const LockOptions& options) {
    if (options.sign.empty()) return std::nullopt;
    if (options.allowed_signers.empty())
        throw UsageError("--sign " + options.sign + " needs --allowed-signers FILE (git's format), which names the key's principal");
    return establish_signer(options.sign, options.allowed_signers);
}

void print_notes(const LockStanding& standing) {
    for (const auto& note : standing.notes) std::cerr << "routetune: warning: " << note << "\n";
}

void record(const LockStanding& standing, AuditEntry entry) {
    AuditAppend written = append_audit_entry(AuditTarget{standing.audit_log, command_argv()}, {}, std::move(entry));
    if (written.torn_offset)
        std::cerr << "routetune: warning: audit log " << written.file.string() << ": its last line was incomplete (torn: "
                  << written.torn_bytes << " bytes at byte " << *written.torn_offset
                  << "); ended it and wrote this entry on a line of its own\n";
}

AuditEntry lock_entry(const std::string& action, const std::string& lock, const LockStanding& standing) {
    AuditEntry entry = make_audit_entry(action, lock, command_argv());
    entry.evidence = difference_evidence(lock, standing.differences);
    if (!standing.tampering.empty()) {
        nlohmann::json tampering = difference_evidence(lock, standing.tampering)["differences"];
        entry.evidence["tampering"] = tampering;
    }
    if (!standing.signer.empty()) entry.evidence["signer"] = standing.signer;
    return entry;
}

int answer_tampered(const LockStanding& standing, const std::string& lock, const std::string& result) {
    std::cerr << "routetune: " << lock << " is tampered:\n" << tampering_text(standing);
    AuditEntry entry = lock_entry("tampered", lock, standing);
    entry.result = result;
    record(standing, entry);
    return kExitTampered;
}

}  // namespace routetune::cli
