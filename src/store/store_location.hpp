// Where a study store is: a file path (SQLite, the embedded default) or a postgresql:// URL
// (PostgreSQL: one database holds many studies, picked by name). URLs may carry a password;
// redact_location() is the only form of a location that messages and records ever show.
#pragma once

#include <filesystem>
#include <string>

namespace routetune {

/// A store's location and, for a database of many studies, which study.
struct StoreLocation {
    std::string text;   ///< a file path, or a postgresql:// (postgres://) URL
    std::string study;  ///< the study's name in a multi-study store; "" = the only (or the spec's) one

    StoreLocation() = default;
    /// A file path (implicit, so callers holding a path stay as they are).
    StoreLocation(const std::filesystem::path& path) : text(path.string()) {}  // NOLINT
    /// A path or URL text.
    StoreLocation(std::string location, std::string study_name = {})  // NOLINT
        : text(std::move(location)), study(std::move(study_name)) {}
    /// A path or URL text.
    StoreLocation(const char* location) : text(location) {}  // NOLINT

    /// True for a postgresql:// or postgres:// URL (for the opener in store/; callers ask the
    /// questions below instead).
    bool is_postgres() const;
    /// True when the store is a file on this machine: it can be looked for, made absolute, and
    /// has files beside it (the study's folder, the audit log); false for a database server.
    bool is_file() const;
    /// True when the store is shared by processes on many machines: it holds several studies
    /// by name and hands candidates to workers under leases; a file has one writer.
    bool shares_work() const;
    /// The location as records that outlive this run name it (manifests, locks): a file made
    /// absolute and normal, a database URL without its password.
    std::string for_records() const;
    /// The location as messages may show it: the password replaced by "***".
    std::string redacted() const;
};

/// text with the password of a postgresql:// URL (user:PASSWORD@ or ?password=...) replaced
/// by "***"; any other text unchanged.
std::string redact_location(const std::string& text);

/// True when text is a postgresql:// or postgres:// URL.
bool is_postgres_url(const std::string& text);

}  // namespace routetune
