// How often promotion overrode the study: of the "promoted" entries of an audit log, how many
// promoted a route other than the study's confirmed winner (evidence.overrides_winner).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace routetune {

/// Promotions and overrides counted in one log.
struct OverrideRate {
    std::size_t promotions = 0;
    std::size_t overrides = 0;
};

/// The rate over entries (as parse_audit_lines gives them).
OverrideRate override_rate(const std::vector<nlohmann::json>& entries);

/// The rate over the audit log at file (none when it is absent); UsageError as AuditFile says.
OverrideRate override_rate(const std::filesystem::path& file);

/// {"promotions", "overrides", "rate"} (rate null without promotions).
nlohmann::json override_rate_json(const OverrideRate& rate);

/// "1 of 3 promotions overrode the study's winner (33%)".
std::string override_rate_text(const OverrideRate& rate);

}  // namespace routetune
