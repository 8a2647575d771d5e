// The nvcc adapter: the device-code tuning knobs of nvcc and of ptxas (reached through
// -Xptxas), with allowed values and defaults read from `nvcc --help` and `ptxas --help`.
//
// Knob names: an nvcc option is named by the short name nvcc prints in parentheses
// (`--ftz` → `-ftz`, `--jump-table-density` → `-jtd`); a ptxas option by `-Xptxas:` and its
// ptxas short name (`--opt-level` → `-Xptxas:-O`, `--def-load-cache` → `-Xptxas:-dlcm`).
// Options printed as {true|false} are bool knobs (on|off → --ftz=true|false); options without
// an argument are bool knobs present (on) or absent (off); others take their value
// (`--maxrregcount=64`, `-Xptxas --opt-level=2`).
//
// Left out on purpose: the GPU architecture (-arch, -gencode, -code: part of the base, a
// route never changes the target), host-compiler options (-O, -Xcompiler: declare them as
// [[knob]]s when wanted), debug/diagnostic/output/compile-time-only options, and -dlto/-rdc
// (they change the link step). Tagged unsafe (left out of globs unless --include-unsafe):
// the fast-math family whose non-default values change numerics (-use_fast_math, -ftz,
// -prec-div, -prec-sqrt, -fmad), -restrict (a programmer assertion) and
// -Xptxas:-opt-fp-atomics.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/adapter.hpp"
#include "routetune/catalog.hpp"
#include "routetune/route.hpp"

namespace routetune {

/// The nvcc/ptxas knobs found in the two help texts (ptxas_help may be empty: no ptxas
/// knobs); compiler identity left empty.
Catalog build_nvcc_catalog(std::string_view nvcc_help, std::string_view ptxas_help);

/// base flags with every option a route knob names removed (also inside -Xptxas lists), then
/// the route's nvcc flags, then its declared knobs' flags and environment.
AppliedRoute apply_nvcc_route(const std::vector<std::string>& base, const Route& route, const Catalog& catalog);

/// An `nvcc` adapter over options (compiler default: "nvcc"; ptxas is looked for beside it,
/// then on PATH).
std::unique_ptr<Adapter> make_nvcc_adapter(AdapterOptions options);

}  // namespace routetune
