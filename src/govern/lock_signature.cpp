// ssh-keygen reads the message on stdin and takes the signature as a file, so each check writes
// the signature into a scratch folder that is removed afterwards. A probe signature (a fixed
// text) is what find-principals needs to name the key's principal before the lock exists.
#include "govern/lock_signature.hpp"

#include "routetune/error.hpp"
#include "util/files.hpp"
#include "util/process.hpp"
#include "util/text.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

constexpr double kTimeoutS = 30;

ProcessResult ssh_keygen(std::vector<std::string> arguments, const std::string& input) {
    ProcessSpec spec;
    spec.argv = {"ssh-keygen", "-Y"};
    spec.argv.insert(spec.argv.end(), arguments.begin(), arguments.end());
    spec.stdin_data = input;
    spec.timeout_s = kTimeoutS;
    spec.output_cap = 1 << 16;
    return run_process(spec);
}

std::string said(const ProcessResult& result) {
    if (result.outcome == ProcessOutcome::SpawnFailed)
        return "ssh-keygen could not run (" + result.error + "; Debian's openssh-client provides it)";
    if (result.outcome == ProcessOutcome::TimedOut) return "ssh-keygen timed out";
    std::string text(trim(result.err.empty() ? result.out : result.err));
    return text.empty() ? "ssh-keygen failed (exit " + std::to_string(result.exit_code) + ")" : text;
}

// Runs check with the signature written to a file in a scratch folder.
template <typename Check>
auto with_signature_file(const std::string& signature, Check check) {
    fs::path folder = make_scratch_folder(fs::temp_directory_path(), "routetune-signature-");
    fs::path file = folder / "lock.sig";
    if (!write_file(file, signature)) {
        remove_tree_quietly(folder);
        throw RuntimeFailure("cannot write a signature to " + file.string());
    }
    auto result = check(file);
    remove_tree_quietly(folder);
    return result;
}

}  // namespace

std::string sign_lock_content(const LockSigner& signer, const std::string& data) {
    ProcessResult signed_data = ssh_keygen({"sign", "-q", "-f", signer.key.string(), "-n", kLockSignatureNamespace}, data);
    if (!signed_data.succeeded() || signed_data.out.find("BEGIN SSH SIGNATURE") == std::string::npos)
        throw RuntimeFailure("--sign " + signer.key.string() + ": cannot sign: " + said(signed_data));
    return signed_data.out;
}

LockSigner establish_signer(const fs::path& key, const fs::path& allowed_signers) {
    if (!fs::is_regular_file(allowed_signers))
        throw UsageError("--allowed-signers " + allowed_signers.string() + ": no file here (git's allowed-signers format)");
    LockSigner signer{key, allowed_signers, ""};
    std::string probe = "routetune-lock signer probe\n";
    std::string signature;
    try {
        signature = sign_lock_content(signer, probe);
    } catch (const RuntimeFailure& e) {
        throw UsageError(e.what());
    }
    ProcessResult found = with_signature_file(signature, [&](const fs::path& file) {
        return ssh_keygen({"find-principals", "-s", file.string(), "-f", allowed_signers.string()}, "");
    });
    std::string principal = found.succeeded() ? std::string(trim(found.out.substr(0, found.out.find('\n')))) : "";
    if (principal.empty())
        throw UsageError("--sign " + key.string() + ": " + allowed_signers.string() +
                         " names no principal for this key (" + said(found) + ")");
    signer.principal = principal;
    if (std::string problem = signature_problem(probe, signature, principal, allowed_signers); !problem.empty())
        throw UsageError("--sign " + key.string() + ": its signature does not verify as " + principal + ": " + problem);
    return signer;
}

std::string signature_problem(const std::string& data, const std::string& signature, const std::string& principal,
                              const fs::path& allowed_signers) {
    if (signature.empty()) return "the lock is not signed";
    if (principal.empty()) return "the lock names no signer";
    ProcessResult checked = with_signature_file(signature, [&](const fs::path& file) {
        return ssh_keygen({"verify", "-f", allowed_signers.string(), "-I", principal, "-n", kLockSignatureNamespace, "-s",
                           file.string()},
                          data);
    });
    return checked.succeeded() ? "" : said(checked);
}

}  // namespace routetune
