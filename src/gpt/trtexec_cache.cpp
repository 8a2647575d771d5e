// Reading and writing GPT tuning caches with nlohmann::ordered_json (field order as trtexec
// writes it), and the mapping between iterations and Evaluations described in the header.
#include "gpt/trtexec_cache.hpp"

#include <set>

#include <cmath>
#include <nlohmann/json.hpp>

#include "routetune/error.hpp"
#include "util/excerpt.hpp"

namespace routetune {

namespace {

using Json = nlohmann::ordered_json;

std::string string_field(const Json& object, const char* key) {
    if (!object.contains(key) || object.at(key).is_null()) return "";
    return object.at(key).get<std::string>();
}

TrtexecCacheHeader read_header(const Json& j) {
    TrtexecCacheHeader header;
    header.tuner_version = string_field(j, "tuner_version");
    if (j.contains("accuracy_algorithm")) header.accuracy_algorithm = string_field(j, "accuracy_algorithm");
    if (j.contains("accuracy_parameter") && j.at("accuracy_parameter").is_object()) {
        const auto& p = j.at("accuracy_parameter");
        header.accuracy_parameter.atol = p.value("atol", header.accuracy_parameter.atol);
        header.accuracy_parameter.rtol = p.value("rtol", header.accuracy_parameter.rtol);
        header.accuracy_parameter.epsilon = p.value("epsilon", header.accuracy_parameter.epsilon);
    }
    if (j.contains("searching_algorithm")) header.searching_algorithm = string_field(j, "searching_algorithm");
    header.command_line = string_field(j, "command_line");
    header.default_build_route = string_field(j, "default_build_route");
    header.tuning_expr = string_field(j, "tuning_expr");
    if (j.contains("files")) header.files_json = j.at("files").dump();
    if (j.contains("argv")) header.argv = j.at("argv").get<std::vector<std::string>>();
    return header;
}

TrtexecCacheIteration read_iteration(const Json& j) {
    TrtexecCacheIteration iteration;
    if (!j.at("iter").is_number_unsigned()) throw UsageError("\"iter\" must be a non-negative integer");
    iteration.iter = j.at("iter").get<std::uint64_t>();
    iteration.build_route = j.at("build_route").get<std::string>();
    iteration.crash = j.value("crash", false);
    iteration.error_message = string_field(j, "error_message");
    if (j.contains("accuracy_loss") && j.at("accuracy_loss").is_object()) {
        iteration.accuracy_loss = j.at("accuracy_loss").get<std::map<std::string, double>>();
    }
    if (j.contains("gpu_time") && !j.at("gpu_time").is_null()) {
        const Json& time = j.at("gpu_time");
        if (!time.is_number() || !(time.get<double>() > 0) || !std::isfinite(time.get<double>()))
            throw UsageError("\"gpu_time\" must be a positive number of milliseconds or null, got " + quoted_excerpt(time.dump(), 40));
        iteration.gpu_time_ms = time.get<double>();
    }
    return iteration;
}

Json header_json(const TrtexecCacheHeader& header) {
    Json j;
    j["tuner_version"] = header.tuner_version;
    j["accuracy_algorithm"] = header.accuracy_algorithm;
    Json parameter;
    parameter["atol"] = header.accuracy_parameter.atol;
    parameter["rtol"] = header.accuracy_parameter.rtol;
    parameter["epsilon"] = header.accuracy_parameter.epsilon;
    j["accuracy_parameter"] = parameter;
    j["searching_algorithm"] = header.searching_algorithm;
    j["command_line"] = header.command_line;
    j["default_build_route"] = header.default_build_route;
    j["tuning_expr"] = header.tuning_expr;
    j["files"] = Json::parse(header.files_json.empty() ? "{}" : header.files_json);
    j["argv"] = header.argv;
    return j;
}

Json iteration_json(const TrtexecCacheIteration& iteration) {
    Json j;
    j["iter"] = iteration.iter;
    j["build_route"] = iteration.build_route;
    j["crash"] = iteration.crash;
    j["error_message"] = iteration.error_message;
    if (iteration.accuracy_loss) {
        Json losses = Json::object();
        for (const auto& [name, loss] : *iteration.accuracy_loss) losses[name] = loss;
        j["accuracy_loss"] = losses;
    } else {
        j["accuracy_loss"] = nullptr;
    }
    j["gpu_time"] = iteration.gpu_time_ms ? Json(*iteration.gpu_time_ms) : Json(nullptr);
    return j;
}

bool crashed(Status status) {
    return status == Status::BuildCrashed || status == Status::RunCrashed || status == Status::BuildTimeout ||
           status == Status::RunTimeout;
}

std::string default_message(Status status) {
    switch (status) {
        case Status::BuildFailed: return "build failed";
        case Status::RunFailed: return "run failed";
        case Status::BuildTimeout: return "build timed out";
        case Status::RunTimeout: return "run timed out";
        default: return "";
    }
}

}  // namespace

TrtexecCache parse_trtexec_cache(std::string_view text, const std::string& source) {
    TrtexecCache cache;
    bool have_header = false;
    std::set<std::string> routes;
    std::size_t pos = 0;
    std::size_t number = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++number;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
        try {
            Json j = Json::parse(line);
            if (!j.is_object()) throw UsageError("not a JSON object");
            if (!have_header) {
                cache.header = read_header(j);
                have_header = true;
            } else {
                cache.iterations.push_back(read_iteration(j));
                if (!routes.insert(cache.iterations.back().build_route).second)
                    throw UsageError("route " + quoted_excerpt(cache.iterations.back().build_route, 200) +
                                     " appears twice (each route is one iteration)");
            }
        } catch (const nlohmann::json::exception& e) {
            throw UsageError(source + ":" + std::to_string(number) + ": not a tuning cache " +
                             (have_header ? "iteration" : "header") + " line: " + unquoted_excerpt(e.what(), 300));
        } catch (const UsageError& e) {
            throw UsageError(source + ":" + std::to_string(number) + ": " + e.what());
        }
    }
    if (!have_header) throw UsageError(source + ": empty tuning cache (no header line)");
    return cache;
}

std::string write_trtexec_cache(const TrtexecCache& cache) {
    std::string text = header_json(cache.header).dump() + "\n";
    for (const auto& iteration : cache.iterations) text += iteration_json(iteration).dump() + "\n";
    return text;
}

std::vector<Evaluation> trtexec_cache_to_evaluations(const TrtexecCache& cache) {
    std::vector<Evaluation> evaluations;
    const std::string& mode = cache.header.searching_algorithm;
    const double epsilon = cache.header.accuracy_parameter.epsilon;
    for (std::size_t i = 0; i < cache.iterations.size(); ++i) {
        const auto& iteration = cache.iterations[i];
        Evaluation evaluation;
        try {
            evaluation.route = Route::parse(iteration.build_route);
        } catch (const UsageError& e) {
            throw UsageError("tuning cache iteration " + std::to_string(iteration.iter) + ": " + e.what());
        }
        evaluation.phase = (i == 0 && (mode == "fast" || mode == "mixed")) ? "default" : mode;
        bool inaccurate = false;
        if (iteration.accuracy_loss && !iteration.crash) {
            for (const auto& [name, loss] : *iteration.accuracy_loss) {
                CaseResult result;
                result.name = name;
                result.loss = loss;
                bool over = epsilon > 0 && !(loss <= epsilon);
                result.status = over ? Status::Inaccurate : Status::Ok;
                inaccurate = inaccurate || over;
                evaluation.cases.push_back(result);
            }
        }
        if (iteration.crash) {
            evaluation.status = Status::BuildCrashed;
            evaluation.message = iteration.error_message.empty() ? "crashed" : iteration.error_message;
        } else if (!iteration.error_message.empty()) {
            evaluation.status = Status::BuildFailed;
            evaluation.message = iteration.error_message;
        } else if (inaccurate) {
            evaluation.status = Status::Inaccurate;
        } else if (!iteration.gpu_time_ms) {
            evaluation.status = Status::RunFailed;
            evaluation.message = "no GPU time recorded";
        } else {
            evaluation.status = Status::Ok;
        }
        if (iteration.gpu_time_ms && !iteration.crash) {
            double seconds = *iteration.gpu_time_ms / 1000.0;
            evaluation.timing.samples_s = {seconds};
            evaluation.timing.median_s = evaluation.timing.ci_low_s = evaluation.timing.ci_high_s = seconds;
        }
        evaluations.push_back(std::move(evaluation));
    }
    return evaluations;
}

TrtexecCache evaluations_to_trtexec_cache(const std::vector<Evaluation>& evaluations, TrtexecCacheHeader header) {
    TrtexecCache cache;
    cache.header = std::move(header);
    for (std::size_t i = 0; i < evaluations.size(); ++i) {
        const Evaluation& evaluation = evaluations[i];
        TrtexecCacheIteration iteration;
        iteration.iter = i;
        iteration.build_route = evaluation.route.to_string();
        iteration.crash = crashed(evaluation.status);
        bool failed = iteration.crash || evaluation.status == Status::BuildFailed || evaluation.status == Status::RunFailed;
        if (failed) iteration.error_message = evaluation.message.empty() ? default_message(evaluation.status) : evaluation.message;
        if (iteration.crash && iteration.error_message == "crashed") iteration.error_message.clear();
        if (!iteration.crash) {
            std::map<std::string, double> losses;
            for (const auto& result : evaluation.cases) {
                if (std::isfinite(result.loss)) losses[result.name] = result.loss;
            }
            if (!losses.empty()) iteration.accuracy_loss = losses;
        }
        bool timed = evaluation.status == Status::Ok || evaluation.status == Status::Inaccurate;
        if (timed && evaluation.timing.median_s > 0) {
            // Rounded to 1e-9 ms so that ms → s → ms prints the original decimal again.
            iteration.gpu_time_ms = std::round(evaluation.timing.median_s * 1e12) / 1e9;
        }
        cache.iterations.push_back(std::move(iteration));
    }
    return cache;
}

std::optional<std::string> trtexec_accuracy_algorithm(std::string_view metric) {
    if (metric == "linf") return "lInf";
    if (metric == "l0" || metric == "l1" || metric == "l2" || metric == "cos") return std::string(metric);
    return std::nullopt;
}

}  // namespace routetune
