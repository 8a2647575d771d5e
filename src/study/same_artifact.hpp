// One answer per artifact: a candidate whose build gives an artifact already measured, run the
// same way (eval/run_identity.hpp), is not run again; it takes that measurement's answer and
// names it (Evaluation::same_as). The scheduler (through the ledger) and the scale-out worker
// both answer candidates here.
#pragma once

#include "routetune/evaluation.hpp"

namespace routetune {

/// True when e's artifact was run by e itself (ok, inaccurate, run_failed, run_crashed or
/// run_timeout, and no same_as): its answer holds for every candidate with its run identity.
bool measured_itself(const Evaluation& e);

/// built (a candidate after its build, not measured) answered by twin, which measured_itself
/// with the same run identity: built's route, phase, build fields and artifact; twin's status,
/// message, cases, timing and paired rounds; same_as naming twin's route ("(default)" for the default).
Evaluation same_as_twin(Evaluation built, const Evaluation& twin);

}  // namespace routetune
