// The trtexec adapter (TensorRT): its knobs are the build-route knobs of `trtexec
// --helpBuildRoute`; a route is handed to trtexec as one argv item
// --setBuildRoute="<route>" (the route's canonical text, merged over a --setBuildRoute of
// the base flags). The spec's build command holds --onnx=... and --saveEngine={artifact}.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "routetune/adapter.hpp"
#include "routetune/catalog.hpp"
#include "routetune/route.hpp"

namespace routetune {

/// base flags without --setBuildRoute, then --setBuildRoute=<base route merged with route's
/// TensorRT knobs> when that is not empty, then route's declared knobs.
AppliedRoute apply_trtexec_route(const std::vector<std::string>& base, const Route& route, const Catalog& catalog);

/// A `trtexec` adapter over options (compiler default: "trtexec").
std::unique_ptr<Adapter> make_trtexec_adapter(AdapterOptions options);

}  // namespace routetune
