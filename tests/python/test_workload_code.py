"""examples/inductor_common/workload.py's code identity without a GPU: what a build records of each
generated module it loaded (module_summary), and how a warm run that loaded other code says which
modules differ (module_difference, code_refusal), on module files written here as Inductor's cache
holds them (no torch needed); and what a request whose compile AOTAutograd's cache bypassed says of
it (bypass_reason)."""

import sys
from pathlib import Path

WORKLOAD_DIR = Path(__file__).resolve().parents[2] / "examples" / "inductor_common"
sys.path.insert(0, str(WORKLOAD_DIR))

import workload  # noqa: E402

OUTPUT_CODE = "import torch\n\ndef call(args):\n    return args\n"
KERNEL = "@triton.jit\ndef triton_poi_fused_add_0(in_ptr0, out_ptr0, XBLOCK : tl.constexpr):\n    pass\n"
KERNEL_TUNED = KERNEL.replace("pass", "x = 1")


def output_code_with(*kernels):
    """Output code as PyTorch 2.11's Python wrapper writes it: each kernel's source in the module,
    handed to async_compile.triton, then the graph's call() in class Runner."""
    defined = "".join("triton_%d = async_compile.triton('triton_%d', '''\n%s\n''', device_str='cuda')\n"
                      % (index, index, kernel) for index, kernel in enumerate(kernels))
    return ("import torch\n" + defined + "\nclass Runner:\n    def call(self, args):\n        return args\n\n"
            "runner = Runner(partitions=[])\ncall = runner.call\n")


def cache_with(folder, monkeypatch, modules):
    """Writes each NAME: TEXT of modules under folder (a cache folder, as Inductor lays one out) and
    points TORCHINDUCTOR_CACHE_DIR at it; returns the paths in modules' order."""
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(folder))
    paths = []
    for name, text in modules.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        paths.append(str(path))
    return paths


def test_a_build_records_what_each_module_defines_where_it_lies_and_its_hash(tmp_path, monkeypatch):
    paths = cache_with(tmp_path, monkeypatch, {"ab/cabc.py": OUTPUT_CODE, "k1/ck1.py": KERNEL, "x/cx.py": "X = 1\n"})
    summary = workload.module_summary(paths + paths[:1])
    assert [module[:2] for module in summary] == [["output code", "ab/cabc.py"],
                                                  ["triton_poi_fused_add_0", "k1/ck1.py"], ["other", "x/cx.py"]]
    assert len({module[2] for module in summary}) == 3 and all(len(module[2]) == 64 for module in summary)


def test_the_same_contents_under_other_names_differ_in_nothing(tmp_path, monkeypatch):
    built = workload.module_summary(cache_with(tmp_path / "build", monkeypatch, {"a/ca.py": OUTPUT_CODE, "k/ck.py": KERNEL}))
    run = cache_with(tmp_path / "run", monkeypatch, {"b/cb.py": OUTPUT_CODE, "j/cj.py": KERNEL})
    assert workload.module_difference(built, run) == ""


def test_a_run_that_loaded_another_kernel_names_it_and_the_builds_own(tmp_path, monkeypatch):
    built = workload.module_summary(cache_with(tmp_path, monkeypatch, {"a/ca.py": OUTPUT_CODE, "k/ck.py": KERNEL}))
    run = cache_with(tmp_path, monkeypatch, {"a/ca.py": OUTPUT_CODE, "t/ct.py": KERNEL_TUNED})
    difference = workload.module_difference(built, run)
    assert difference == ("only this run loaded 1 of 2 modules: triton_poi_fused_add_0 (t/ct.py); "
                          "only its build loaded 1 of 2 modules: triton_poi_fused_add_0 (k/ck.py)")


def test_a_long_difference_names_a_few_modules_and_counts_the_rest(tmp_path, monkeypatch):
    kernels = {"k%d/c%d.py" % (index, index): KERNEL.replace("_0(", "_%d(" % index) for index in range(6)}
    run = cache_with(tmp_path, monkeypatch, kernels)
    difference = workload.module_difference([], run, shown=2)
    assert difference.startswith("only this run loaded 6 of 6 modules: triton_poi_fused_add_0 (k0/c0.py); ")
    assert difference.endswith(" and 4 more")
    assert "only its build" not in difference


def test_a_refused_capture_says_which_modules_differ(tmp_path, monkeypatch):
    built_paths = cache_with(tmp_path, monkeypatch, {"a/ca.py": OUTPUT_CODE, "k/ck.py": KERNEL})
    artifact = {"code_sha256": workload.code_sha256(built_paths), "code_modules": workload.module_summary(built_paths)}
    run = cache_with(tmp_path, monkeypatch, {"a/ca.py": OUTPUT_CODE, "t/ct.py": KERNEL_TUNED})
    monkeypatch.setattr(workload, "LOADED_CODE", list(built_paths))
    assert workload.code_refusal(artifact, {}) == "", "the build's own code is not refused"
    monkeypatch.setattr(workload, "LOADED_CODE", list(run))
    refusal = workload.code_refusal(artifact, {})
    assert refusal.startswith("ran code %s, but its build produced %s (compile caches: {}; only this run loaded 1 of 2"
                              % (workload.code_sha256(run)[:16], artifact["code_sha256"][:16])), refusal
    assert "only its build loaded 1 of 2 modules: triton_poi_fused_add_0 (k/ck.py))" in refusal
    del artifact["code_modules"]
    assert workload.code_refusal(artifact, {}).endswith("(compile caches: {})"), "an older build's artifact still refuses"


def test_a_run_that_loaded_only_the_output_code_has_its_builds_identity(tmp_path, monkeypatch):
    output = output_code_with(KERNEL)
    built = cache_with(tmp_path / "build", monkeypatch, {"a/ca.py": output, "k/ck.py": KERNEL})
    run = cache_with(tmp_path / "run", monkeypatch, {"a/ca.py": output})
    assert workload.code_identity(built) == ("output code", [built[0]])
    assert workload.code_sha256(run) == workload.code_sha256(built)
    assert workload.module_summary(built)[0][0] == "output code", "output code is named so, not by its kernels"


def test_output_code_holding_another_kernel_is_other_code(tmp_path, monkeypatch):
    built = cache_with(tmp_path / "build", monkeypatch, {"a/ca.py": output_code_with(KERNEL), "k/ck.py": KERNEL})
    run = cache_with(tmp_path / "run", monkeypatch, {"a/ca.py": output_code_with(KERNEL_TUNED)})
    assert workload.code_sha256(run) != workload.code_sha256(built)


def test_a_kernel_module_whose_source_no_output_code_holds_counts_in_the_identity(tmp_path, monkeypatch):
    output = output_code_with(KERNEL)
    built = cache_with(tmp_path / "build", monkeypatch, {"a/ca.py": output, "k/ck.py": KERNEL})
    run = cache_with(tmp_path / "run", monkeypatch, {"a/ca.py": output, "k/ck.py": KERNEL, "t/ct.py": KERNEL_TUNED})
    assert workload.code_identity(run) == ("every module", sorted(run))
    assert workload.code_sha256(run) != workload.code_sha256(built)
    assert workload.code_identity(run[1:]) == ("every module", sorted(run[1:])), "without output code, every module counts"


def test_a_frozen_request_that_bypassed_aotautograds_cache_says_why_it_cost_a_trace():
    bypassed = {"aot_autograd.autograd_cache_bypass": 1, "inductor.fxgraph_cache_hit": 1}
    assert workload.bypass_reason(bypassed, ("freezing", True)).startswith(
        "AOTAutograd's cache serves no frozen graph (PyTorch's check_cacheable")
    assert workload.bypass_reason(bypassed, ("freezing", False)).startswith("AOTAutograd's cache bypassed")
    assert workload.bypass_reason({"aot_autograd.autograd_cache_hit": 1}, ("freezing", True)) == ""
    assert workload.bypass_reason({}, ("freezing", False)) == ""
