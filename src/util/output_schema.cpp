#include "util/output_schema.hpp"

namespace routetune {

std::string versioned_json_text(const nlohmann::ordered_json& doc, int indent) {
    nlohmann::ordered_json out;
    out["schema_version"] = kOutputSchemaVersion;
    for (const auto& [key, value] : doc.items())
        if (key != "schema_version") out[key] = value;
    return out.dump(indent) + "\n";
}

}  // namespace routetune
