// Secret-looking values are replaced before anything is stored, locked or logged; ordinary text
// (compiler output, flags, URLs without passwords) is left alone.
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
                      "cc1: note: -fsecret-sauce=3 -ftoken-limit=4 is not an option\n"
                      "gcc -pthread -pipe -I/usr/include/mysql -u main x.c --param=max-unroll-times=16\n"
                      "see https://gcc.gnu.org:443/onlinedocs/ and postgresql://db.example/x\n";
    EXPECT_EQ(redact_secrets(log), log);
}

TEST(Redaction, GenericNamesForTokensPasswordsAndSecretsLoseTheirValues) {
    EXPECT_EQ(redact_secrets("error: GITHUB_TOKEN=ghp_0123456789abcdefghij0123 DB_PASSWORD=hunter2 rest"),
              "error: GITHUB_TOKEN=[REDACTED] DB_PASSWORD=[REDACTED] rest");
    EXPECT_EQ(redact_secrets("CI_JOB_TOKEN=abc AWS_SECRET_ACCESS_KEY=xyz MYSQL_PASS=p1"),
              "CI_JOB_TOKEN=[REDACTED] AWS_SECRET_ACCESS_KEY=[REDACTED] MYSQL_PASS=[REDACTED]");
    EXPECT_EQ(redact_secrets("tool --password=hunter2 --api-key abc123 --db-token 'x y'"),
              "tool --password=[REDACTED] --api-key [REDACTED] --db-token [REDACTED]");
}

TEST(Redaction, PasswordsInUrlsKeepTheUserAndHost) {
    EXPECT_EQ(redact_secrets("cannot connect to postgresql://ann:s3cret@db.example:5432/studies"),
              "cannot connect to postgresql://ann:[REDACTED]@db.example:5432/studies");
    EXPECT_EQ(redact_secrets("git clone https://x-access-token:tok@github.com/o/r.git"),
              "git clone https://x-access-token:[REDACTED]@github.com/o/r.git");
    EXPECT_EQ(redact_secrets("mysql://root:p@ss@host/db"), "mysql://root:[REDACTED]@host/db");
}

TEST(Redaction, PasswordOptionsOfCommonToolsLoseTheirValues) {
    EXPECT_EQ(redact_secrets("mysql -h db -u root -pS3cret app"), "mysql -h db -u root -p[REDACTED] app");
    EXPECT_EQ(redact_secrets("mysqldump --single-transaction -pS3cret app"),
              "mysqldump --single-transaction -p[REDACTED] app");
    EXPECT_EQ(redact_secrets("sshpass -p hunter2 ssh host"), "sshpass -p [REDACTED] ssh host");
    EXPECT_EQ(redact_secrets("curl -u admin:pw https://x/api"), "curl -u admin:[REDACTED] https://x/api");
    EXPECT_EQ(redact_secrets("curl --user admin:pw https://x"), "curl --user admin:[REDACTED] https://x");
    EXPECT_EQ(redact_secrets("curl -uadmin:pw https://x"), "curl -uadmin:[REDACTED] https://x");
}

TEST(Redaction, AuthorizationHeadersKeepTheirSchemeAndLoseTheirCredentials) {
    EXPECT_EQ(redact_secrets("Authorization: Basic dXNlcjpwYXNzd29yZA=="), "Authorization: Basic [REDACTED]");
    EXPECT_EQ(redact_secrets("curl -H \"Authorization: token abc123\" https://x"),
              "curl -H \"Authorization: token [REDACTED]\" https://x");
    EXPECT_EQ(redact_secrets("proxy-authorization: Negotiate YIIabc"), "proxy-authorization: Negotiate [REDACTED]");
    EXPECT_EQ(redact_secrets("Authorization: s3cr3t"), "Authorization: [REDACTED]");
}

TEST(Redaction, ForgeTokensOfEveryShapeAreReplacedWhole) {
    EXPECT_EQ(redact_secrets("push with github_pat_11ABCDEFG0123456789_abcdefghijklmnop"), "push with [REDACTED]");
    EXPECT_EQ(redact_secrets("glpat-abcdefghij0123456789 used"), "[REDACTED] used");
}

}  // namespace
}  // namespace routetune
