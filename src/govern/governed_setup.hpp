// What the governance commands share: a spec made ready to build (adapter and catalog, no
// expression needed), scratch folders for fresh builds, dates, and the lock registry beside a
// study store (the locks promote wrote from it, which gc must respect).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "routetune/adapter.hpp"
#include "routetune/spec.hpp"
#include "eval/study_paths.hpp"

namespace routetune {

/// A spec with its adapter and catalog.
struct GovernedSetup {
    Spec spec;
    std::unique_ptr<Adapter> adapter;
    Catalog catalog;
};

/// Loads the spec at file (every case, promotion-only ones included) and discovers its catalog;
/// throws UsageError as load_spec does.
GovernedSetup governed_setup(const std::filesystem::path& file);

/// The default route of the spec at file as its adapter applies it (the base flags), without
/// discovering a catalog: no compiler runs. UsageError as load_spec.
AppliedRoute spec_default_route(const std::filesystem::path& file);

/// Scratch paths below root/purpose (work/ and references/ inside it).
StudyPaths governance_paths(const std::filesystem::path& root, const std::string& purpose);

/// Today plus days, as YYYY-MM-DD (UTC).
std::string date_after_days(int days);

/// Days from text "90d", "12w" or "90"; throws UsageError naming option and the valid forms.
int parse_days(const std::string& text, const std::string& option);

/// The registry of locks written from store: store + ".locks.json".
std::filesystem::path lock_registry_path(const std::filesystem::path& store);

/// Adds lock_file (absolute) to store's registry, atomically; no-op when already listed.
void register_lock(const std::filesystem::path& store, const std::filesystem::path& lock_file);

/// The absolute lock paths in store's registry (empty when it has none).
std::vector<std::filesystem::path> registered_locks(const std::filesystem::path& store);

}  // namespace routetune
