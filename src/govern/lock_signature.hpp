// Signing a lock with an ssh key, and checking the signature, through OpenSSH's own
// `ssh-keygen -Y sign | find-principals | verify` (namespace routetune-lock) with git's
// allowed-signers format. Nothing here parses a key or a signature: ssh-keygen does.
#pragma once

#include <filesystem>
#include <string>

namespace routetune {

/// The ssh signature namespace of locks.
inline constexpr const char* kLockSignatureNamespace = "routetune-lock";

/// A key that signs, and the principal allowed_signers gives it.
struct LockSigner {
    std::filesystem::path key;              ///< the private key (or a public key whose private half is in ssh-agent)
    std::filesystem::path allowed_signers;  ///< git's allowed-signers file
    std::string principal;
};

/// Establishes who key signs as: signs a probe and finds its principal in allowed_signers.
/// UsageError naming the files when ssh-keygen is missing, the key cannot sign, or
/// allowed_signers has no principal for it.
LockSigner establish_signer(const std::filesystem::path& key, const std::filesystem::path& allowed_signers);

/// The armored ssh signature of data by signer.key; RuntimeFailure naming the key when
/// ssh-keygen fails.
std::string sign_lock_content(const LockSigner& signer, const std::string& data);

/// Empty when signature is a good routetune-lock signature of data by principal according to
/// allowed_signers; else what ssh-keygen said (never throws for a bad signature).
std::string signature_problem(const std::string& data, const std::string& signature, const std::string& principal,
                              const std::filesystem::path& allowed_signers);

}  // namespace routetune
