// The private state of a SqliteStudyStore, shared by its implementation files: the connection, the
// mutex that serializes its users, and a transaction guard.
#pragma once

#include <mutex>

#include "store/sqlite/sqlite_db.hpp"
#include "store/sqlite/sqlite_study_store.hpp"

namespace routetune {

/// An exclusive flock on "<store>.lock" held by the one writer of a store; released when
/// the process ends, however it ends.
class WriterLock {
public:
    WriterLock() = default;
    /// Takes the lock of store; throws RuntimeFailure naming the holder's pid when taken.
    void acquire(const std::filesystem::path& store);
    ~WriterLock();
    WriterLock(const WriterLock&) = delete;
    WriterLock& operator=(const WriterLock&) = delete;

private:
    int fd_ = -1;
};

struct SqliteStudyStore::Impl {
    Impl(const std::filesystem::path& file, bool read_only, bool create)
        : path(file), db(file, read_only, create) {}

    std::filesystem::path path;
    WriterLock writer_lock;  ///< declared before db so the connection closes first
    SqliteDb db;
    mutable std::mutex mutex;
    int opened_version = 0;
};

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

}  // namespace routetune
