"""The program that ships the model: it applies model.lock (written by tune_model.py) to
torch._inductor.config before torch.compile, then runs the compiled model and checks it
against the eager model.

    python3 serve_model.py [--fallback]

routetune.inductor.apply_lock asks `routetune flags model.lock` whether the lock may be used
here: a changed machine, PyTorch, spec or input makes it stale (routetune.StaleLock), an
edited lock tampered (routetune.TamperedLock), and nothing is set. With --fallback such a lock
gives the spec's default route instead (torch.compile's defaults), logged in the lock's audit
log.
"""

import argparse
import sys
from pathlib import Path

import routetune
from routetune import inductor

HERE = Path(__file__).resolve().parent
MODEL = HERE.parent / "inductor_mlp"
LOCK = HERE / "model.lock"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fallback", action="store_true", help="a lock that cannot be used gives the default route")
    arguments = parser.parse_args()
    try:
        applied = inductor.apply_lock(LOCK, fallback=arguments.fallback)
    except (routetune.StaleLock, routetune.TamperedLock) as refused:
        print("model.lock cannot be used here (exit %d); --fallback runs the default route:\n%s"
              % (refused.code, refused.stderr), file=sys.stderr)
        return refused.code
    print("route %s (%s): %s" % (applied.route or "(default)", applied.source, applied.config))

    import torch

    sys.path.insert(0, str(MODEL))
    import model as definition

    torch.manual_seed(0)
    model = definition.build_model().cuda().eval()
    example = definition.example_input().cuda()
    compiled = torch.compile(model)
    with torch.no_grad():
        expected = model(example)
        result = compiled(example)
    error = (torch.linalg.vector_norm(result - expected) / torch.linalg.vector_norm(expected)).item()
    print("compiled with the lock's route: rel_l2 %.2e against eager" % error)
    return 0


if __name__ == "__main__":
    sys.exit(main())
