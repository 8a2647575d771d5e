// Each rule is one regular expression, applied in order over the whole text. Assignments keep
// their name and separator and lose their value (up to whitespace or a quote); a name right
// after '-' is not one (compiler flags such as -fsecret-x=1 stay as they are); fixed-shape
// keys (AWS access key ids, GitHub and Slack tokens, bearer tokens) are replaced whole; a PEM
// private-key block is replaced from its BEGIN line to its END line, or to the end of the text
// when a tail cut the END off.
#include "util/redaction.hpp"

#include <regex>
#include <vector>

namespace routetune {

namespace {

struct Rule {
    std::regex pattern;
    std::string replacement;
};

const std::vector<Rule>& rules() {
    static const std::vector<Rule> table = [] {
        const auto flags = std::regex::ECMAScript | std::regex::icase;
        const std::string marker(kRedacted);
        return std::vector<Rule>{
            {std::regex("-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\\s\\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)"),
             marker},
            {std::regex("(^|[^-\\w.])([\\w.]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY)"
                        "[\\w.-]*[\"']?\\s*[=:]\\s*)(\"[^\"\\n]*\"|'[^'\\n]*'|[^\\s\"',;]+)",
                        flags),
             "$1$2" + marker},
            {std::regex("\\b(AKIA|ASIA)[0-9A-Z]{16}\\b"), marker},
            {std::regex("\\bgh[pousr]_[A-Za-z0-9]{20,}"), marker},
            {std::regex("\\bxox[abprs]-[A-Za-z0-9-]{10,}"), marker},
            {std::regex("(Bearer\\s+)[A-Za-z0-9._~+/-]{8,}=*", flags), "$1" + marker},
        };
    }();
    return table;
}

}  // namespace

std::string redact_secrets(std::string_view text) {
    std::string result(text);
    for (const auto& rule : rules()) result = std::regex_replace(result, rule.pattern, rule.replacement);
    return result;
}

}  // namespace routetune
