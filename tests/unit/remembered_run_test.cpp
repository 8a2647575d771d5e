// util/remembered_run: a remembered result is handed out once, for exactly the same command
// only (argv, environment, an unchanged program file).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "util/files.hpp"
#include "util/remembered_run.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

class RememberedRunTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = make_scratch_folder(fs::temp_directory_path(), "routetune-remembered-");
        program_ = dir_ / "tool";
        write_program("echo tool 1.0");
        spec_.argv = {program_.string(), "--version"};
        spec_.env["LC_ALL"] = "C";
    }
    void TearDown() override { fs::remove_all(dir_); }
    void write_program(const std::string& body) {
        std::ofstream(program_) << "#!/bin/sh\n" << body << "\n";
        fs::permissions(program_, fs::perms::owner_all);
    }
    ProcessResult run_and_remember() {
        ProcessResult result = run_process(spec_);
        EXPECT_TRUE(result.succeeded()) << result.error;
        remember_run(spec_, result);
        return result;
    }

    fs::path dir_, program_;
    ProcessSpec spec_;
};

TEST_F(RememberedRunTest, TheSameCommandTakesTheResultOnce) {
    run_and_remember();
    std::optional<ProcessResult> taken = take_remembered_run(spec_);
    ASSERT_TRUE(taken.has_value());
    EXPECT_EQ(taken->out, "tool 1.0\n");
    EXPECT_FALSE(take_remembered_run(spec_).has_value()) << "handed out twice";
}

TEST_F(RememberedRunTest, AnotherArgvOrEnvironmentIsNotAnswered) {
    run_and_remember();
    ProcessSpec other_argv = spec_;
    other_argv.argv.back() = "-v";
    EXPECT_FALSE(take_remembered_run(other_argv).has_value());
    ProcessSpec other_env = spec_;
    other_env.env["LC_ALL"] = "en_US.UTF-8";
    EXPECT_FALSE(take_remembered_run(other_env).has_value());
    EXPECT_TRUE(take_remembered_run(spec_).has_value());
    run_and_remember();
    ProcessSpec small_cap = spec_;
    small_cap.output_cap = 4;  // this asker would have seen a cut output: it runs the program itself
    EXPECT_FALSE(take_remembered_run(small_cap).has_value());
}

TEST_F(RememberedRunTest, AReplacedProgramIsRunAfresh) {
    run_and_remember();
    write_program("echo tool 2.0 with a longer line");
    EXPECT_FALSE(take_remembered_run(spec_).has_value());
}

TEST_F(RememberedRunTest, AFailedRunIsNotRemembered) {
    write_program("exit 3");
    ProcessResult result = run_process(spec_);
    ASSERT_FALSE(result.succeeded());
    remember_run(spec_, result);
    EXPECT_FALSE(take_remembered_run(spec_).has_value());
}

}  // namespace
}  // namespace routetune
