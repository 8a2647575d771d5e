// The `custom` adapter: for a compiler routetune knows nothing about. Its catalog is only the
// spec's user-declared knobs; a route becomes the base flags plus each declared knob's argv
// item and environment variable.
#pragma once

#include <memory>

#include "routetune/adapter.hpp"

namespace routetune {

/// A `custom` adapter over options (its catalog: options.declared_knobs).
std::unique_ptr<Adapter> make_custom_adapter(AdapterOptions options);

}  // namespace routetune
