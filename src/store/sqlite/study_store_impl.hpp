// The private state of a SqliteStudyStore, shared by its implementation files: the connection, the
// mutex that serializes its users, a transaction guard and a guard of commits that are not fsync'ed.
#pragma once

#include <memory>
#include <mutex>

#include "store/sqlite/sqlite_db.hpp"
#include "store/sqlite/sqlite_study_store.hpp"
#include "store/sqlite/writer_lock.hpp"
#include "util/space_reserve.hpp"

namespace routetune {

struct SqliteStudyStore::Impl {
    Impl(const std::filesystem::path& file, WriterLock lock, bool read_only, bool create, bool immutable)
        : path(file), writer_lock(std::move(lock)), db(file, read_only, create, immutable) {}

    std::filesystem::path path;
    WriterLock writer_lock;  ///< declared before db so the connection closes first
    std::unique_ptr<SpaceReserve> reserve;  ///< a writer's "<store>.reserve", removed under the lock
    SqliteDb db;
    mutable std::mutex mutex;
    int opened_version = 0;
    bool has_same_as = true;     ///< evaluation.same_as exists (false: a store before schema 4 opened read-only)
    bool paired_columns = true;  ///< the evaluation table has schema 5's paired columns (a reader of an older store: no)
    bool run_cost_columns = true;  ///< the evaluation table has schema 6's run costs (a reader of an older store: no)
    std::string moved_aside_to;  ///< where opening as a new study renamed the earlier one
};

/// The timing summary stored in four columns of row from first on: samples (encode_samples
/// text), median, CI low, CI high.
TimingSummary read_timing(const SqliteStatement& row, int first);

/// BEGIN IMMEDIATE on construction; ROLLBACK on destruction unless commit() ran.
class StoreTransaction {
public:
    explicit StoreTransaction(SqliteDb& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }
    ~StoreTransaction() {
        if (!done_) {
            try {
                db_.exec("ROLLBACK");
            } catch (...) {
            }
        }
    }
    StoreTransaction(const StoreTransaction&) = delete;
    StoreTransaction& operator=(const StoreTransaction&) = delete;

    /// Commits (durably: the store runs with synchronous=FULL).
    void commit() {
        db_.exec("COMMIT");
        done_ = true;
    }

private:
    SqliteDb& db_;
    bool done_ = false;
};

/// synchronous = NORMAL while it lives (a commit reaches the kernel, not the disk: kill -9 keeps
/// it, a power loss may not); FULL again afterwards, also when an exception leaves.
class WeakSync {
public:
    /// Switches db to synchronous = NORMAL.
    explicit WeakSync(SqliteDb& db) : db_(db) { db_.exec("PRAGMA synchronous = NORMAL"); }
    ~WeakSync() {
        try {
            db_.exec("PRAGMA synchronous = FULL");
        } catch (...) {
        }
    }
    WeakSync(const WeakSync&) = delete;
    WeakSync& operator=(const WeakSync&) = delete;

private:
    SqliteDb& db_;
};

}  // namespace routetune
