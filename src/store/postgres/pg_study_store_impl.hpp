// The private state of a PgStudyStore, shared by its implementation files.
#pragma once

#include <memory>
#include <mutex>

#include "store/postgres/pg_connection.hpp"
#include "store/postgres/pg_study_store.hpp"

namespace routetune {

struct PgStudyStore::Impl {
    std::unique_ptr<PgConnection> db;
    mutable std::mutex mutex;  ///< serializes the connection's users
    std::string name;          ///< the study's name
    std::int64_t study_id = 0; ///< 0 until the header exists
    int opened_version = 0;
    bool read_only = false;
    std::string moved_aside_to;  ///< the earlier study's new name, after set_aside

    /// The study's id; throws RuntimeFailure when its header was never written.
    std::int64_t require_study() const;
};

}  // namespace routetune
