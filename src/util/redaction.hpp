// Redaction of secret-looking text before it is stored (build logs, stderr tails): values of
// assignments whose name says TOKEN, SECRET, PASSWORD, PASSWD, API_KEY, ACCESS_KEY or
// PRIVATE_KEY, cloud and forge key patterns, bearer tokens and PEM private-key blocks.
#pragma once

#include <string>
#include <string_view>

namespace routetune {

/// The marker that replaces each redacted secret.
inline constexpr std::string_view kRedacted = "[REDACTED]";

/// text with every secret-looking value replaced by kRedacted; the names before '=' or ':'
/// are kept, so a reader still sees which variable was set.
std::string redact_secrets(std::string_view text);

}  // namespace routetune
