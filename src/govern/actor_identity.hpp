// Who acts, as far as this process can establish it: the account of the real uid (getpwuid),
// never $USER, which anyone can set. $USER is kept only as a claim when it names someone else.
// A signer's principal (govern/lock_signature.hpp) is a stronger identity and replaces it.
#pragma once

#include <optional>
#include <string>

namespace routetune {

/// The acting identity.
struct ActorIdentity {
    std::string name;    ///< the real uid's account name; "uid N" when the uid has none
    std::string claim;   ///< $USER when set and different from the account name, else ""
    bool established = false;  ///< false when the uid has no account name
};

/// The identity of this process (real uid) and the $USER claim.
ActorIdentity current_actor();

/// The identity for uid with user_variable as $USER (nullptr: unset); current_actor's rule.
ActorIdentity actor_for(unsigned uid, const char* user_variable);

/// The owner a lock records: owner when given (UsageError when it is empty or blank), else the
/// signer when there is one, else the established identity; UsageError asking for --owner when
/// there is none.
std::string lock_owner(const std::optional<std::string>& owner, const std::string& signer, const ActorIdentity& actor);

}  // namespace routetune
