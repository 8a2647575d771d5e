// What `routetune flags` prints: a route as a build applies it (its flags and its environment),
// in the syntax of the build that reads it. shell: a POSIX sh fragment to eval; make: a makefile
// fragment to include; cmake: a CMake script to include; env: NAME=value lines (an environment
// file, e.g. $GITHUB_ENV); json: one object. Every format carries the flags AND the environment,
// so no consumer can take one and silently lose the other.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace routetune {

/// The route a build is to use, and where it comes from.
struct BuildRoute {
    std::string route;                               ///< printed route ("" for the default)
    std::vector<std::string> flags;                  ///< argv items for the compiler
    std::map<std::string, std::string> environment;  ///< values the build's processes need
    std::string source;                              ///< "lock", "fallback" or "route"
    std::string lock;                                ///< the lock consulted ("" for `flags SPEC --route`)
    std::string spec;                                ///< the spec the route belongs to (absolute)
    std::string refusal;                             ///< with a fallback: why the lock was not used
};

/// The format names: "shell", "make", "cmake", "env", "json".
const std::vector<std::string>& build_route_format_names();

/// route in format (one of build_route_format_names()), ending with a newline. Throws UsageError
/// naming the value and the format for what the format cannot hold: an environment name that is
/// not [A-Za-z_][A-Za-z0-9_]*, a line break in make, env or cmake, a ';' in cmake.
std::string format_build_route(const BuildRoute& route, const std::string& format);

}  // namespace routetune
