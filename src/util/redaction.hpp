// The one redaction filter: text passes through it before any store, lock or audit entry is
// written (evaluation messages, build logs, stderr tails, argv, reasons, environment values).
// It removes values of assignments whose name says TOKEN, SECRET, PASSWORD, PASSWD,
// PASSPHRASE, CREDENTIALS, API_KEY, ACCESS_KEY, PRIVATE_KEY or ends in _PASS; long options so
// named (--password=...); passwords in URLs (scheme://user:pw@host); `-u user:pw`; mysql's
// -pPASS and sshpass's -p PASS; Authorization headers; cloud and forge key patterns; bearer
// tokens and PEM private-key blocks.
#pragma once

#include <string>
#include <string_view>

namespace routetune {

/// The marker that replaces each redacted secret.
inline constexpr std::string_view kRedacted = "[REDACTED]";

/// text with every secret-looking value replaced by kRedacted; the names before '=' or ':',
/// a URL's user and an Authorization header's scheme are kept, so a reader still sees what was
/// set.
std::string redact_secrets(std::string_view text);

}  // namespace routetune
