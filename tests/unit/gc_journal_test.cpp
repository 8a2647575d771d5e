// gc's crash consistency (issue 25): the plan is journaled and audited before anything goes, a
// journal left by a killed gc is completed by the next one under its own audit entry, and a row
// whose artifact folder is already gone is cleared, so no row points at a removed file.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "eval/study_paths.hpp"
#include "govern/garbage_collector.hpp"
#include "routetune/error.hpp"
#include "store/study_store.hpp"
#include "unit/store_samples.hpp"
#include "util/files.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

// A store with evaluations of -k=1..count, each with an artifact in its work folder.
struct GcStudy {
    fs::path store;
    StudyPaths paths;
    std::vector<Evaluation> evaluations;
};

GcStudy gc_study(int count) {
    GcStudy study;
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-gc-");
    study.store = dir / "g.sqlite";
    study.paths = make_study_paths({}, "", study.store);
    auto store = StudyStore::open(study.store);
    store->write_header(testing::sample_header());
    for (int i = 1; i <= count; ++i) {
        Evaluation e = testing::sample_evaluation("-k=" + std::to_string(i));
        fs::path folder = study.paths.workdir(e.route.hash());
        fs::create_directories(folder);
        write_file(folder / "artifact", "binary " + std::to_string(i));
        e.artifact_path = (folder / "artifact").string();
        e.id = store->record(e);
        study.evaluations.push_back(e);
    }
    return study;
}

std::vector<nlohmann::json> audit(const fs::path& store) {
    std::vector<nlohmann::json> entries;
    std::string text = read_file(store.string() + ".audit.jsonl").value_or("");
    for (std::size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
        entries.push_back(nlohmann::json::parse(text.substr(start, end - start)));
    return entries;
}

TEST(GcJournal, ARowWhoseFolderIsGoneIsCleared) {
    GcStudy study = gc_study(2);
    remove_tree_quietly(study.paths.workdir(study.evaluations[0].route.hash()));  // as a gc killed after the removal
    GcOptions options;
    options.keep = {"winner", "default", "locked"};
    options.older_than_s = 1e9;  // nothing is old enough to remove: only the repair happens
    GcReport report = collect_garbage(study.store, options);
    EXPECT_EQ(report.paths_cleared, 1u);
    auto store = StudyStore::open_read_only(study.store);
    auto first = store->find(study.evaluations[0].route.hash());
    auto second = store->find(study.evaluations[1].route.hash());
    ASSERT_TRUE(first && second);
    EXPECT_EQ(first->artifact_path, "") << "a row still points at a removed folder";
    EXPECT_EQ(second->artifact_path, study.evaluations[1].artifact_path);
}

TEST(GcJournal, AJournalLeftByAKilledGcIsCompletedUnderItsOwnAuditEntry) {
    GcStudy study = gc_study(3);
    // A gc killed after journaling its plan of -k=1 and -k=2 and removing -k=1's folder only.
    nlohmann::json plan = nlohmann::json::array();
    for (int i = 0; i < 2; ++i)
        plan.push_back({{"id", study.evaluations[i].id}, {"route", study.evaluations[i].route.to_string()},
                        {"route_hash", study.evaluations[i].route.hash()}});
    write_file(study.paths.root / "gc-journal.json",
               nlohmann::json{{"planned_at", "2026-12-01T00:00:00Z"}, {"remove", plan}}.dump());
    remove_tree_quietly(study.paths.workdir(study.evaluations[0].route.hash()));
    GcOptions options;
    options.older_than_s = 1e9;  // the new gc itself removes nothing: what goes is the journal's
    GcReport report = collect_garbage(study.store, options);
    EXPECT_FALSE(fs::exists(study.paths.root / "gc-journal.json"));
    EXPECT_FALSE(fs::exists(study.paths.workdir(study.evaluations[1].route.hash())));
    EXPECT_TRUE(fs::exists(study.paths.workdir(study.evaluations[2].route.hash())));
    auto store = StudyStore::open_read_only(study.store);
    EXPECT_EQ(store->find(study.evaluations[0].route.hash())->artifact_path, "");
    EXPECT_EQ(store->find(study.evaluations[1].route.hash())->artifact_path, "");
    EXPECT_NE(store->find(study.evaluations[2].route.hash())->artifact_path, "");
    auto entries = audit(study.store);
    ASSERT_GE(entries.size(), 2u);
    EXPECT_EQ(entries[0].at("action"), "gc-resumed");
    EXPECT_EQ(entries[0].at("evidence").at("remove").size(), 2u);
    EXPECT_EQ(entries.back().at("action"), "gc");
}

TEST(GcJournal, ThePlanIsAuditedBeforeAnythingGoes) {
    GcStudy study = gc_study(3);
    GcReport report = collect_garbage(study.store, GcOptions());
    EXPECT_EQ(report.artifacts_removed, 3u);
    auto entries = audit(study.store);
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].at("action"), "gc-planned");
    EXPECT_EQ(entries[0].at("evidence").at("remove").size(), 3u);
    EXPECT_EQ(entries[1].at("action"), "gc");
    EXPECT_FALSE(fs::exists(study.paths.root / "gc-journal.json"));
}

TEST(GcJournal, AMalformedJournalStopsGcNamingIt) {
    GcStudy study = gc_study(1);
    write_file(study.paths.root / "gc-journal.json", "{\"remove\": [{\"id\": 1, \"route_hash\": \"../../etc\"}]}");
    EXPECT_THROW(collect_garbage(study.store, GcOptions()), RuntimeFailure);
    EXPECT_TRUE(fs::exists(study.paths.workdir(study.evaluations[0].route.hash())));
}

}  // namespace
}  // namespace routetune
