"""workload.py's commands, run in a child of routetune's fork server
(python/routetune_forkserver.py), which has PyTorch imported: same arguments, same exit code.
The helper's folder comes from ROUTETUNE_PYTHON_DIR (set by routetune's inductor adapter),
else the source tree's python/ folder."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("ROUTETUNE_PYTHON_DIR") or os.path.join(HERE, "..", "..", "python"))

import routetune_forkserver  # noqa: E402

if __name__ == "__main__":
    sys.exit(routetune_forkserver.call([os.path.join(HERE, "workload.py")] + sys.argv[1:]))
