// What `tune` printed that a store's records do not hold by themselves (the loss metric, the
// planned candidates, the kept artifact bytes, the exact wall time, what `~` left out for the
// study's CPU), kept as store notes so that `report` gives back the same figures.
#pragma once

#include "store/store_location.hpp"

#include <filesystem>
#include <string>
#include <string_view>

#include "routetune/study.hpp"
#include "store/study_store.hpp"

namespace routetune {

/// Writes summary's candidates_total, artifact/binary/output bytes, wall_s (exactly), left_out and metric as notes.
void record_study_notes(StudyStore& store, const StudySummary& summary, std::string_view metric);

/// Sets summary's candidates_total, artifact/binary/output bytes, wall_s and left_out from the notes that store holds
/// (fields without a note keep their value); returns the metric note, "" when none.
std::string apply_study_notes(const StudyStore& store, StudySummary& summary);

/// The loss metric a study's store names ("" when it names none).
std::string load_study_metric(const StoreLocation& cache);

}  // namespace routetune
