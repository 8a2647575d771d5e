// The PostgreSQL store's schema: versioned like the SQLite one, migrated under an advisory lock
// so that many workers starting at once apply each migration exactly once.
#pragma once

#include "store/postgres/pg_connection.hpp"

namespace routetune {

/// Brings the database to the current schema (creating it in an empty database) and returns
/// the version it had (0 when new). Throws UsageError for a schema newer than this routetune
/// or a database whose tables belong to another application; read_only never migrates and
/// refuses an older schema.
int prepare_pg_schema(PgConnection& db, bool read_only);

/// The schema version this build writes.
int current_pg_schema_version();

}  // namespace routetune
