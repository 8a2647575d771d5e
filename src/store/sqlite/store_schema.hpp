// The study store's schema and its migrations: a table of numbered SQL steps applied in order
// to bring any older store up to the newest version.
#pragma once

#include <string>
#include <vector>

#include "store/sqlite/sqlite_db.hpp"

namespace routetune {

/// One step of the schema: the SQL that takes version - 1 to version.
struct StoreMigration {
    int version;
    std::string sql;
};

/// Every migration, in order; the last one's version is the current schema version.
const std::vector<StoreMigration>& store_migrations();

/// The schema version this build writes.
int current_store_schema_version();

/// True when table has column (a reader of an older store leaves out what it lacks).
bool has_column(SqliteDb& db, const char* table, const char* column);

/// The store's application_id ("RTST"), set on creation and checked on open.
constexpr int kStoreApplicationId = 0x52545354;

/// Checks that db is a study store (or empty) and brings it to the current version (unless
/// read_only); returns the version found. Throws UsageError for a foreign file, a newer
/// schema, or (read-only) an older one.
int prepare_store_schema(SqliteDb& db, bool read_only);

}  // namespace routetune
