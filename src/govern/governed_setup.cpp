#include "govern/governed_setup.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <charconv>

#include "routetune/error.hpp"
#include "study/study_setup.hpp"
#include "util/bounded_read.hpp"
#include "util/files.hpp"

namespace routetune {

namespace fs = std::filesystem;

GovernedSetup governed_setup(const fs::path& file) {
    GovernedSetup setup;
    setup.spec = load_spec(file);
    setup.adapter = make_adapter(setup.spec.compiler.adapter, adapter_options_for(setup.spec));
    setup.catalog = setup.adapter->discover();
    return setup;
}

AppliedRoute spec_default_route(const fs::path& file) {
    Spec spec = load_spec(file);
    return make_adapter(spec.compiler.adapter, adapter_options_for(spec))->apply(Route{}, Catalog{});
}

StudyPaths governance_paths(const fs::path& root, const std::string& purpose) {
    StudyPaths paths;
    paths.root = root / purpose;
    paths.work = paths.root / "work";
    paths.references = paths.root / "references";
    return paths;
}

std::string date_after_days(int days) {
    auto when = std::chrono::system_clock::now() + std::chrono::hours(24) * days;
    return iso8601_utc(when).substr(0, 10);
}

int parse_days(const std::string& text, const std::string& option) {
    int value = 0;
    std::string_view digits(text);
    int unit = 1;
    if (!digits.empty() && (digits.back() == 'd' || digits.back() == 'w')) {
        unit = digits.back() == 'w' ? 7 : 1;
        digits.remove_suffix(1);
    }
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || value < 1 || value > 3650)
        throw UsageError(option + " '" + text + "': give whole days from 1 to 3650, e.g. 90d, 12w or 30");
    return value * unit;
}

fs::path lock_registry_path(const fs::path& store) { return fs::path(store.string() + ".locks.json"); }

std::vector<fs::path> registered_locks(const fs::path& store) {
    std::vector<fs::path> locks;
    BoundedRead text = read_bounded(lock_registry_path(store), kMaxManifestBytes, "lock registry");
    if (text.missing) return locks;
    if (!text.bytes) throw RuntimeFailure(text.error);
    nlohmann::json object = nlohmann::json::parse(*text.bytes, nullptr, false);
    if (object.is_discarded() || !object.contains("locks") || !object["locks"].is_array())
        throw RuntimeFailure(lock_registry_path(store).string() + ": malformed lock registry (expected {\"locks\": [...]})");
    for (const auto& entry : object["locks"])
        if (entry.is_string()) locks.emplace_back(entry.get<std::string>());
    return locks;
}

void register_lock(const fs::path& store, const fs::path& lock_file) {
    std::vector<fs::path> locks = registered_locks(store);
    fs::path absolute = fs::absolute(lock_file).lexically_normal();
    if (std::find(locks.begin(), locks.end(), absolute) != locks.end()) return;
    locks.push_back(absolute);
    nlohmann::json list = nlohmann::json::array();
    for (const auto& lock : locks) list.push_back(lock.string());
    std::string error;
    if (!write_file(lock_registry_path(store), nlohmann::json{{"locks", list}}.dump(2) + "\n", &error))
        throw RuntimeFailure("cannot write the lock registry " + lock_registry_path(store).string() + ": " + error);
}

}  // namespace routetune
