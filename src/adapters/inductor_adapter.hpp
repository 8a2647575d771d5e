// The inductor adapter (PyTorch torch.compile): the knobs are the tunable entries of
// torch._inductor.config, discovered by running the helper python/routetune_inductor.py
// (--dump-config) with the spec's Python. A route reaches the workload as the environment
// variable ROUTETUNE_INDUCTOR_ROUTE (route text); the workload calls
// routetune_inductor.apply_route() before torch.compile. ROUTETUNE_PYTHON_DIR names the
// helper's folder so the workload can import it.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "routetune/adapter.hpp"
#include "routetune/catalog.hpp"
#include "routetune/route.hpp"

namespace routetune {

/// The helper script: $ROUTETUNE_INDUCTOR_HELPER, else routetune_inductor.py in
/// share/routetune or python/ above the running executable, else in the source tree's
/// python/ folder; empty when none exists.
std::filesystem::path inductor_helper_path();

/// Base flags of the form -inductor:NAME=VALUE are base assignments (the route overrides
/// them) and leave the flags; environment ROUTETUNE_INDUCTOR_ROUTE = the merged route text
/// (set even when empty, so an inherited value never leaks in); then the declared knobs.
AppliedRoute apply_inductor_route(const std::vector<std::string>& base, const Route& route, const Catalog& catalog);

/// An `inductor` adapter over options (compiler: the Python executable, default "python3").
std::unique_ptr<Adapter> make_inductor_adapter(AdapterOptions options);

}  // namespace routetune
