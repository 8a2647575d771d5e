// Secret-looking values are replaced before logs are stored; ordinary text is left alone.
#include <gtest/gtest.h>

#include "util/redaction.hpp"

namespace routetune {
namespace {

TEST(Redaction, AssignmentsKeepTheirNameAndLoseTheirValue) {
    EXPECT_EQ(redact_secrets("export GITHUB_TOKEN=abc123def\n"), "export GITHUB_TOKEN=[REDACTED]\n");
    EXPECT_EQ(redact_secrets("db_password: 'hunter 2'"), "db_password: [REDACTED]");
    EXPECT_EQ(redact_secrets("MY_SECRET=\"s3cr3t\" next"), "MY_SECRET=[REDACTED] next");
    EXPECT_EQ(redact_secrets("api_key=zzz"), "api_key=[REDACTED]");
}

TEST(Redaction, KeyPatternsAndPrivateKeyBlocksAreReplacedWhole) {
    EXPECT_EQ(redact_secrets("id AKIAIOSFODNN7EXAMPLE used"), "id [REDACTED] used");
    EXPECT_EQ(redact_secrets("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.x.y"), "Authorization: Bearer [REDACTED]");
    EXPECT_EQ(redact_secrets("a\n-----BEGIN RSA PRIVATE KEY-----\nMIIB\nxyz\n-----END RSA PRIVATE KEY-----\nb"),
              "a\n[REDACTED]\nb");
    EXPECT_EQ(redact_secrets("cut\n-----BEGIN PRIVATE KEY-----\nMIIE"), "cut\n[REDACTED]");
    EXPECT_EQ(redact_secrets("token ghp_0123456789abcdefghijABCDEFGHIJ0123 here"), "token [REDACTED] here");
}

TEST(Redaction, OrdinaryCompilerOutputIsUnchanged) {
    std::string log = "kernel.c:12:5: warning: unused variable 'tokens' [-Wunused-variable]\n"
                      "cc1: note: -fsecret-sauce=3 -ftoken-limit=4 is not an option\n";
    EXPECT_EQ(redact_secrets(log), log);
}

}  // namespace
}  // namespace routetune
