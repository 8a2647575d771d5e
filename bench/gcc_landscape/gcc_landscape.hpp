// Modelled landscapes of GCC's real shape (issue 27): the knobs of GCC 12's `*=~` (read from
// the catalog text in tests/fixtures/gcc12, as GCC 12.2 prints it at -O2) with the features of
// LandscapeOptions::gcc. Shared by strategy_bench (simulation) and gcc_landscape_cc (the
// fake compiler of the end-to-end studies), so both see the same landscape.
#pragma once

#include <cstdint>
#include <string>

#include "routetune/expression.hpp"
#include "search/sim/synthetic_landscape.hpp"

namespace routetune {

/// The catalog text folder (tests/fixtures/gcc12 of this checkout).
std::string gcc12_fixtures();

/// GCC 12's catalog as parsed from gcc12_fixtures() (base -O2), no host-ISA filter.
const Catalog& gcc12_catalog();

/// `*=~` over gcc12_catalog().
const Expression& gcc12_star_tilde();

/// True for the kinds gcc_landscape knows: "gcc" (many small gains of 1-5%), "gcc-thin" (gains
/// spread thinnest: more of 1-2% and nothing large) and "gcc-doors" (gcc with four gains each shut
/// out by a value that does nothing alone: a diagnostic).
bool is_gcc_kind(const std::string& kind);

/// The modelled landscape of kind and seed over gcc12_star_tilde().
SyntheticLandscape gcc_landscape(const std::string& kind, std::uint64_t seed, double interval_spread = 0);

}  // namespace routetune
