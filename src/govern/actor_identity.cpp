#include "govern/actor_identity.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "routetune/error.hpp"

namespace routetune {

ActorIdentity actor_for(unsigned uid, const char* user_variable) {
    ActorIdentity actor;
    passwd entry{};
    passwd* found = nullptr;
    std::vector<char> buffer(16384);
    if (getpwuid_r(static_cast<uid_t>(uid), &entry, buffer.data(), buffer.size(), &found) == 0 && found &&
        found->pw_name && *found->pw_name) {
        actor.name = found->pw_name;
        actor.established = true;
    } else {
        actor.name = "uid " + std::to_string(uid);
    }
    if (user_variable && *user_variable && actor.name != user_variable) actor.claim = user_variable;
    return actor;
}

ActorIdentity current_actor() { return actor_for(getuid(), std::getenv("USER")); }

std::string lock_owner(const std::optional<std::string>& owner, const std::string& signer, const ActorIdentity& actor) {
    if (owner) {
        if (owner->find_first_not_of(" \t\r\n") == std::string::npos)
            throw UsageError("--owner '" + *owner + "': give the name of who answers for the route");
        return *owner;
    }
    if (!signer.empty()) return signer;
    if (actor.established) return actor.name;
    throw UsageError("no identity can be established (" + actor.name +
                     " has no account name" + (actor.claim.empty() ? "" : "; $USER=" + actor.claim + " is only a claim") +
                     "): give --owner NAME, or sign with --sign KEY");
}

}  // namespace routetune
