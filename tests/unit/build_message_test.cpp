#include "eval/build_message.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "util/files.hpp"
#include "util/process.hpp"

namespace routetune {
namespace {

TEST(BuildMessage, TheErrorLineWinsOverWarningsAroundIt) {
    // What gcc printed for a bzip2 route: a warning first, the error after.
    std::string log =
        "cc1: warning: variable tracking requested, but useless unless producing debug info\n"
        "bzlib.c: In function 'BZ2_bzCompressInit':\n"
        "bzlib.c:160:1: error: SSE register return with SSE disabled\n"
        "cc1: warning: unrecognized command-line option '-Wno-foo'\n";
    EXPECT_EQ(build_error_line(log), "bzlib.c:160:1: error: SSE register return with SSE disabled");
    EXPECT_EQ(build_error_line("x.c:1:1: internal compiler error: Segmentation fault\nPlease submit a full bug report\n"),
              "x.c:1:1: internal compiler error: Segmentation fault");
}

TEST(BuildMessage, FatalThenLastLineOtherwise) {
    EXPECT_EQ(build_error_line("compiling\nmake: *** [Makefile:3: all] Error 1\n"), "make: *** [Makefile:3: all] Error 1");
    EXPECT_EQ(build_error_line("one\n  two  \n\n"), "two");
    EXPECT_EQ(build_error_line(""), "");
    EXPECT_EQ(build_error_line(std::string(300, 'x') + " error: long").size(), 200u);
}

TEST(BuildMessage, TheLinkersCauseWinsOverTheDriversSummary) {
    // What gcc 12 printed for a PolyBench route: the cause above collect2's summary.
    std::string gcc =
        "/usr/bin/ld: /tmp/ccx.o: in function `kernel':\n"
        "correlation.c:(.text+0x1b): undefined reference to `__x86_return_thunk'\n"
        "collect2: error: ld returned 1 exit status\n";
    EXPECT_EQ(build_error_line(gcc), "correlation.c:(.text+0x1b): undefined reference to `__x86_return_thunk'");
    std::string lld = "ld.lld: error: undefined symbol: missing\n>>> referenced by x.c\n"
                      "clang: error: linker command failed with exit code 1 (use -v to see invocation)\n";
    EXPECT_EQ(build_error_line(lld), "ld.lld: error: undefined symbol: missing");
    EXPECT_EQ(build_error_line("collect2: error: ld returned 1 exit status\n"), "collect2: error: ld returned 1 exit status");
    EXPECT_EQ(build_error_line("cc1: warning: w\nclang: error: linker command failed with exit code 1\nmake: *** Error 1\n"),
              "clang: error: linker command failed with exit code 1");
}

// The real compilers' logs: a compile error names its file and line, a link error the symbol.
class RealCompilerMessages : public ::testing::TestWithParam<const char*> {
protected:
    std::string build_log(const std::string& source) {
        std::filesystem::path dir = make_scratch_folder(std::filesystem::temp_directory_path(), "routetune-msg-");
        write_file(dir / "prog.c", source);
        ProcessSpec spec;
        spec.argv = {GetParam(), "-O2", (dir / "prog.c").string(), "-o", (dir / "prog").string()};
        spec.cwd = dir;
        spec.timeout_s = 60;
        ProcessResult result = run_process(spec);
        remove_tree_quietly(dir);
        EXPECT_EQ(result.outcome, ProcessOutcome::Exited);
        EXPECT_NE(result.exit_code, 0);
        return result.err;
    }
};

TEST_P(RealCompilerMessages, ALinkFailureQuotesTheUndefinedSymbol) {
    std::string line = build_error_line(build_log("int missing_function(void);\nint main(void) { return missing_function(); }\n"));
    EXPECT_NE(line.find("undefined reference to `missing_function'"), std::string::npos) << line;
}

TEST_P(RealCompilerMessages, ACompileFailureQuotesItsFileAndLine) {
    std::string line = build_error_line(build_log("int main(void) {\n  return undeclared_name;\n}\n"));
    EXPECT_NE(line.find("prog.c:2:"), std::string::npos) << line;
    EXPECT_NE(line.find("error:"), std::string::npos) << line;
    EXPECT_NE(line.find("undeclared_name"), std::string::npos) << line;
}

INSTANTIATE_TEST_SUITE_P(GccAndClang, RealCompilerMessages, ::testing::Values("gcc", "clang"));

}  // namespace
}  // namespace routetune
