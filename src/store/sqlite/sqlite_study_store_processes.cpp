// SqliteStudyStore as its own ProcessLedger: the process group of an evaluation is noted on its
// pending row (columns owner, pgid, pgid_ticks), without an fsync (it matters only while this
// machine is up), and the pending rows are read back by the next writer.
#include "store/sqlite/study_store_impl.hpp"

namespace routetune {

void SqliteStudyStore::note_process(const std::string& route_hash, std::int64_t pgid, std::uint64_t pgid_ticks) {
    std::lock_guard lock(impl_->mutex);
    WeakSync weak(impl_->db);
    auto update = impl_->db.prepare(
        "UPDATE evaluation SET pgid = ?, pgid_ticks = ? WHERE route_hash = ? AND status = 'pending'");
    update.bind(1, pgid).bind(2, static_cast<std::int64_t>(pgid_ticks)).bind(3, route_hash);
    update.run();
}

std::vector<PendingProcess> SqliteStudyStore::pending_processes() const {
    std::lock_guard lock(impl_->mutex);
    std::vector<PendingProcess> found;
    auto rows = impl_->db.prepare(
        "SELECT route_hash, owner, pgid, pgid_ticks FROM evaluation WHERE status = 'pending' ORDER BY id");
    while (rows.step()) {
        found.push_back(PendingProcess{rows.text(0), rows.text(1), rows.integer(2),
                                       static_cast<std::uint64_t>(rows.integer(3))});
    }
    return found;
}

}  // namespace routetune
