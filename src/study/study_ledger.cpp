// A failed evaluation's folder is deleted first (what its run wrote may have filled the disk
// the store is on); then a commit goes to the store (one durable transaction), then into memory: history,
// counts, the list, and the keeper's decision about artifacts. The best speedup on the
// progress line is the search phase's figure (speedup_against_default: paired with the
// default's runs), so it is a hint, not the confirmed result. A measurement is indexed by its run
// identity as it is added, so the twin of a later candidate is found in constant time, also
// among a resumed study's evaluations.
#include "study/study_ledger.hpp"

#include "util/files.hpp"

#include <algorithm>

#include "study/same_artifact.hpp"
#include "util/interrupt_guard.hpp"

namespace routetune {

StudyLedger::StudyLedger(StudyStore& store, ArtifactKeeper& keeper, const Clock& clock, double min_gain,
                         std::size_t planned, RunIdentity identity)
    : store_(store), keeper_(keeper), clock_(clock), started_s_(clock.now_s()), identity_(std::move(identity)) {
    history_.min_gain = min_gain;
    progress_.planned = planned;
}

void StudyLedger::add(Evaluation e) {
    if (e.route.empty()) default_ = e;
    else ++candidates_done_;
    ++progress_.counts[e.status];
    if (measured_itself(e)) {
        std::string identity = identity_(e);
        if (!identity.empty()) measured_.emplace(std::move(identity), evaluations_.size());
    }
    evaluations_.push_back(std::move(e));
    if (evaluations_.back().route.empty()) {  // every figure is against the default: observe them all again
        history_.observations.clear();
        for (const auto& done : evaluations_) history_.observations.push_back(observe(done, &*default_));
    } else {
        history_.observations.push_back(observe(evaluations_.back(), default_ ? &*default_ : nullptr));
    }
}

const Evaluation* StudyLedger::measured_twin(const std::string& identity) const {
    auto found = identity.empty() ? measured_.end() : measured_.find(identity);
    return found == measured_.end() ? nullptr : &evaluations_[found->second];
}

void StudyLedger::load() {
    for (auto& e : store_.evaluations()) {
        if (e.status != Status::Pending) add(std::move(e));
    }
    progress_.done = evaluations_.size();
}

void StudyLedger::mark_started(const Route& route, const std::string& phase) {
    store_.mark_pending(route, phase, iso8601_utc_now());
}

void StudyLedger::commit(Evaluation e) {
    if (e.route.empty()) default_ = e;
    if (interrupt_requested()) return;
    keeper_.before_record(e);
    e.id = store_.record(e);
    added_ = true;
    keeper_.after_evaluation(e, evaluations_, default_);
    add(e);
    report(e);
}

void StudyLedger::report(const Evaluation& e) {
    progress_.done = evaluations_.size();
    progress_.elapsed_s = elapsed_s();
    progress_.last_route = e.route.empty() ? "(default)" : e.route.to_string();
    progress_.last_status = std::string(to_string(e.status));
    if (default_ && default_->status == Status::Ok && e.status == Status::Ok && !e.route.empty()) {
        if (auto speedup = speedup_against_default(e, *default_))
            progress_.best_speedup = std::max(progress_.best_speedup, speedup->speedup);
    }
    if (progress_callback_) progress_callback_(progress_);
}

std::string StudyLedger::remaining_text(const std::filesystem::path& cache) const {
    std::size_t done = evaluations_.size();
    std::string left = progress_.planned > done
                           ? "; about " + std::to_string(progress_.planned - done) + " planned evaluations remain"
                           : "";
    return std::to_string(done) + " evaluations are saved in " + cache.string() + left +
           ", then the confirmation; run the same command with --continue to resume";
}

}  // namespace routetune
