// What `tune` printed that a store's records do not hold by themselves (the loss metric, the
// planned candidates, the kept artifact bytes, the exact wall time, what `~` left out for the
// study's CPU, the time limit against the confirmation's reserve and cost, each fresh build's
// median in the confirmation, the warm measurement processes and the code each build ran, each
// knob's default at the base flags),
// kept as store notes so that `report` gives back the same figures.
#pragma once

#include "store/store_location.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "routetune/expression.hpp"
#include "routetune/study.hpp"
#include "store/study_store.hpp"

namespace routetune {

/// Writes summary's candidates_total, artifact/binary/output bytes, wall_s (exactly), left_out, knob_defaults, metric,
/// time_limit_s and confirmation_reserve_s as notes; confirmation_s when above 0, warm_processes and
/// code_identities when not empty (a later tune that confirmed or measured nothing keeps the earlier ones).
void record_study_notes(StudyStore& store, const StudySummary& summary, std::string_view metric);

/// Writes each fresh build's median of the confirmation's routes (the default's and each candidate's
/// build_medians_s) as a note; nothing when no route has any.
void record_confirmation_builds(StudyStore& store, const StudyConfirmation& confirmation);

/// Sets summary's candidates_total, artifact/binary/output bytes, wall_s, left_out, knob_defaults, the time fields,
/// default_build_medians_s, each confirmation's build_medians_s, warm_processes and code_identities
/// from the notes that store holds (fields without a note keep their value); returns the metric note, "" when none.
std::string apply_study_notes(const StudyStore& store, StudySummary& summary);

/// The knob defaults a study records (StudySummary::knob_defaults): each axis of expression whose
/// default at the base flags is known, with that default.
std::map<std::string, std::string> knob_defaults_of(const Expression& expression);

/// Writes knob_defaults as the store's note, so a report of a study still running shows routes
/// as their changes too.
void record_knob_defaults(StudyStore& store, const std::map<std::string, std::string>& knob_defaults);

/// The loss metric a study's store names ("" when it names none).
std::string load_study_metric(const StoreLocation& cache);

}  // namespace routetune
