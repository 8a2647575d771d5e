#include "eval/build_message.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace routetune
