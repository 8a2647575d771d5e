// Each rule is one regular expression, applied in order over the whole text. Assignments keep
// their name and separator and lose their value (up to whitespace or a quote); a name right
// after '-' is not one (compiler flags such as -fsecret-x=1 stay as they are), but a long
// option named for a secret (--password=x, --token x) loses its value. A URL keeps its user
// and loses the password (postgresql://ann:[REDACTED]@host); `-u user:pw` and `--user user:pw`
// (curl) keep the user; an attached -pPASS after a mysql or mariadb command (not GCC's -pthread,
// -pipe, -pedantic, -pie, -pg, -print-...) and sshpass's -p PASS lose the password; an
// Authorization header keeps its scheme and loses its credentials. Fixed-shape keys (AWS
// access key ids, GitHub, GitLab and Slack tokens, bearer tokens) are replaced whole; a PEM
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
        const std::string value = "(\"[^\"\\n]*\"|'[^'\\n]*'|[^\\s\"',;]+)";
        const std::string secret_word = "(?:TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|API_?KEY|ACCESS_?KEY|"
                                        "PRIVATE_?KEY|_PASS\\b)";
        return std::vector<Rule>{
            {std::regex("-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\\s\\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)"),
             marker},
            {std::regex("((?:Proxy-)?Authorization[\"']?\\s*:\\s*(?:[A-Za-z0-9-]+\\s+)?)[^\\s\"'][^\\n\"']*", flags),
             "$1" + marker},
            {std::regex("(^|[^-\\w.])([\\w.]*" + secret_word + "[\\w.-]*[\"']?\\s*[=:]\\s*)" + value, flags),
             "$1$2" + marker},
            {std::regex("(--[\\w-]*(?:token|secret|password|passwd|passphrase|api-?key|access-?key|private-?key)"
                        "[\\w-]*(?:=|\\s+))" + value,
                        flags),
             "$1" + marker},
            {std::regex("(\\b[A-Za-z][A-Za-z0-9+.-]*://[^\\s/:@\"']+:)[^\\s/\"']+@"), "$1" + marker + "@"},
            {std::regex("((?:^|\\s)(?:-u\\s*|--(?:proxy-)?user(?:=|\\s+))[^\\s:\"'@]+:)[^\\s\"']+"), "$1" + marker},
            {std::regex("(\\b(?:mysql\\w*|mariadb[\\w-]*)\\s[^\\n]*?\\s-p)(?!thread\\b|ipe\\b|edantic|ie\\b|g\\b|rint-)"
                        "[^\\s\"']+"),
             "$1" + marker},
            {std::regex("(\\bsshpass\\s+-p\\s*)[^\\s\"']+"), "$1" + marker},
            {std::regex("\\b(AKIA|ASIA)[0-9A-Z]{16}\\b"), marker},
            {std::regex("\\bgh[pousr]_[A-Za-z0-9]{20,}"), marker},
            {std::regex("\\bgithub_pat_[A-Za-z0-9_]{20,}"), marker},
            {std::regex("\\bglpat-[A-Za-z0-9_-]{20,}"), marker},
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
