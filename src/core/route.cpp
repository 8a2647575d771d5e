// Routes: parsing of `NAME=VALUE` tokens, canonical printing (the map keeps names sorted, so
// printing is a walk), hashing of the canonical text, and validation against a catalog.
#include "routetune/route.hpp"

#include <cctype>

#include "routetune/catalog.hpp"
#include "routetune/error.hpp"
#include "util/excerpt.hpp"
#include "util/sha256.hpp"

namespace routetune {

namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string join(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
}

}  // namespace

Route Route::parse(std::string_view text) {
    Route route;
    std::size_t pos = 0;
    int index = 0;
    while (pos < text.size()) {
        if (is_space(text[pos])) {
            ++pos;
            continue;
        }
        std::size_t start = pos;
        while (pos < text.size() && !is_space(text[pos])) ++pos;
        std::string token(text.substr(start, pos - start));
        ++index;
        std::string where = "route token " + std::to_string(index) + " " + quoted_excerpt(token) + " (column " +
                            std::to_string(start + 1) + ")";
        auto eq = token.find('=');
        if (eq == std::string::npos) throw UsageError(where + ": expected NAME=VALUE, e.g. -O=3");
        std::string name = token.substr(0, eq);
        std::string value = token.substr(eq + 1);
        if (!is_valid_knob_name(name))
            throw UsageError(where + ": '" + name +
                             "' is not a knob name (it starts with '-' and contains no '=', whitespace, '[', ']' or '|')");
        if (value.empty()) throw UsageError(where + ": empty value for " + name);
        if (std::string error = knob_value_control_error(value); !error.empty()) throw UsageError(where + ": " + error);
        if (value.find_first_of("[]|") != std::string::npos)
            throw UsageError(where + ": a route value cannot contain '[', ']' or '|' (that is expression syntax)");
        if (route.values_.count(name) != 0) throw UsageError(where + ": knob " + name + " is given twice");
        route.values_.emplace(std::move(name), std::move(value));
    }
    return route;
}

void Route::set(const std::string& knob, const std::string& value) { values_[knob] = value; }

void Route::erase(const std::string& knob) { values_.erase(knob); }

std::optional<std::string> Route::get(std::string_view knob) const {
    auto it = values_.find(knob);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

std::string Route::to_string() const {
    std::string text;
    for (const auto& [name, value] : values_) {
        if (!text.empty()) text += ' ';
        text += name;
        text += '=';
        text += value;
    }
    return text;
}

std::string Route::hash() const { return sha256_hex(to_string()).substr(0, 16); }

void validate_route(const Route& route, const Catalog& catalog) {
    for (const auto& [name, value] : route.assignments()) {
        const Knob* knob = catalog.find(name);
        std::string token = "'" + name + "=" + value + "'";
        if (knob == nullptr) {
            auto closest = catalog.closest_names(name);
            throw UsageError("route token " + token + ": unknown knob " + name +
                             (closest.empty() ? std::string(" (the catalog is empty)") : " (closest: " + join(closest) + ")"));
        }
        if (!knob->allows(value))
            throw UsageError("route token " + token + ": value '" + value + "' is not allowed for " + name +
                             " (allowed: " + knob->allowed_text() + ")");
    }
}

}  // namespace routetune
