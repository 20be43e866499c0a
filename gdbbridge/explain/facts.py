"""Fact extraction for ``cudatui explain``: where and what, pulled out of pasted error text.

:func:`normalize` turns raw cuda-gdb/MI output (console stream records such as
``~"...received signal CUDA_EXCEPTION_14, Warp Illegal Address.\\n"``) back into the text a
user would have seen, leaving other lines alone. :func:`extract_facts` then finds the failing
source line, block and thread (device assert lines, compute-sanitizer reports, cuda-gdb
exception stops), the user's script and last own traceback line, the CUDA error name, OOM
sizes (and whether PyTorch's cache is fragmented), versions; the devices of a device mismatch
and what NCCL and cuDNN report come from :mod:`cudatui.gdbbridge.explain.facts_torch`. Every value
is a string, ready for display; a ``*_advice`` value is a next step written from the input rather
than a fact to list.
"""

from __future__ import annotations

import posixpath
import re

from cudatui.gdbbridge.explain.facts_torch import cudnn_facts, device_facts, nccl_facts

_MI_STREAM = re.compile(r'^\d*[~@&]"(.*)"\s*$')
_C_ESCAPE = re.compile(r"\\([0-7]{1,3}|.)|([^\\]+)", re.S)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "e": "\x1b", "a": "\a", "b": "\b", "f": "\f"}

# A name run ([^\s:]+, [^\n:]+) starts only where the previous character cannot continue it
# (the lookbehinds), and a device assert's function name is at most 500 characters: otherwise
# the search starts a scan to the line's end at every character, quadratic in a long line
# (issue 36: 200 lines of 4,000 characters took minutes).
_ASSERT = re.compile(
    r"(?<![^\s:])(?P<file>[^\s:]+\.(?:cu|cuh|h|hpp|cpp|cc|c)):(?P<line>\d+): (?P<func>[^\n]{0,500}?):? ?block: "
    r"\[(?P<block>[\d, ]+)\], thread: \[(?P<thread>[\d, ]+)\] Assertion `?(?P<cond>[^\n]*?)`?"
    r" failed"
)
_SANITIZER_ACCESS = re.compile(
    r"(?P<what>Invalid __(?:global|shared|local)__ (?:read|write)|Uninitialized __global__ "
    r"memory read) of size (?P<size>\d+)[^\n]*\n[=\s]*at (?P<where>[^\n]+?)\+0x[0-9a-f]+ in "
    r"(?P<file>[^\s:]+):(?P<line>\d+)\s*\n[=\s]*by thread \((?P<thread>[\d,]+)\) in block "
    r"\((?P<block>[\d,]+)\)"
)
_MEMCHECK_ONE_LINE = re.compile(
    r"(?P<what>Invalid __(?:global|shared|local)__ (?:read|write)) of size (?P<size>\d+)[^\n]*?"
    r"at 0x[0-9a-f]+ in (?P<file>[^\s:]+):(?P<line>\d+):(?P<where>[^=\n]*?)\s*=\s*by thread "
    r"\((?P<thread>[\d,]+)\) in block \((?P<block>[\d,]+)\)"
)
_GDB_EXCEPTION = re.compile(r"received signal CUDA_EXCEPTION_(\d+), ([^.\n]+)")
_GDB_KERNEL_FRAME = re.compile(
    r"^0x[0-9a-f]+ in (?P<kernel>[\w:]+)(?:<<<\((?P<grid>[\d,]+)\),\((?P<dim>[\d,]+)\)>>>)? "
    r"\([^\n]*\) at (?P<file>[^\s:]+):(?P<line>\d+)$",
    re.M,
)
_MI_FOCUS = re.compile(r'blockIdx="\((?P<block>[\d,]+)\)",threadIdx="\((?P<thread>[\d,]+)\)"')
_PROGRAM_HIT = re.compile(
    r'Program hit (?P<err>cudaError\w+) \(error (?P<code>\d+)\) due to "(?P<msg>[^"]+)" on '
    r"CUDA API call to (?P<call>\w+)"
)
_CUDA_ERROR_NAME = re.compile(r"\b(cudaError[A-Z]\w+)")
_CUDA_ERROR_TEXT = re.compile(r"CUDA error: (?P<msg>.+?)(?:\\n|\n|\"|'\)|$)")
_PY_FRAME = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)')
_HOST_MODULE_FRAME = re.compile(r"Host Frame: <module> in (?P<path>\S+?):(?P<line>\d+)")
_LIBRARY_PATH = re.compile(r"site-packages|dist-packages|/lib/python\d|^<|/bin/[^/.]+$")
_CUBLAS_CALL = re.compile(r"CUBLAS_STATUS_\w+ when calling `(?P<call>\w+)")

_SIZE = r"(\d+(?:\.\d+)?) ?(bytes|[KMGT]iB)"
_OOM_PATTERNS = {
    "tried_to_allocate": re.compile(r"Tried to allocate " + _SIZE),
    "gpu_total": re.compile(r"total capac\w* of " + _SIZE + r"|" + _SIZE + r" total capacity"),
    "gpu_free": re.compile(r"of which " + _SIZE + r" is free|" + _SIZE + r" free;"),
    "process_in_use": re.compile(r"this process has " + _SIZE + r" memory in use"),
    "allocated_by_pytorch": re.compile(
        _SIZE + r" is allocated by PyTorch|" + _SIZE + r" already allocated"
    ),
    "reserved_unallocated": re.compile(_SIZE + r" is reserved by PyTorch but unallocated"),
    "reserved_by_pytorch": re.compile(_SIZE + r" reserved in total by PyTorch"),
}
_UNITS = {"bytes": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}
FRAGMENTED_SHARE = 0.05
"""Cached-but-unused memory that fits the request counts as fragmentation from this share of the
GPU on; below it the GPU is simply full."""

_ARCH_WARNING = re.compile(
    r"(?<![^\n:])(?P<gpu>[^\n:]+?) with CUDA capability (?P<cap>sm_\d+) is not compatible[^\n]*\s*"
    r"(?:The current PyTorch install supports CUDA capabilities (?P<archs>[\w ]+?)\.?$)?",
    re.M,
)
_VERSION_MISMATCH = re.compile(
    r"detected CUDA version \((?P<found>[\d.]+)\) mismatches the version that was used to "
    r"compile\s+PyTorch \((?P<torch>[\d.]+)\)"
)
_MISSING_LIBRARY = re.compile(r"(lib\w+\.so[\d.]*): cannot open shared object file")
_LEAK_SUMMARY = re.compile(r"LEAK SUMMARY: (?P<bytes>\d+) bytes leaked in (?P<count>\d+) allocation")
_OLD_DRIVER = re.compile(r"driver on your system is too old \(found version (\d+)\)")



def normalize(text: str) -> str:
    """Decode MI console stream records into plain text; other lines pass unchanged."""
    out: list[str] = []
    for line in text.splitlines():
        match = _MI_STREAM.match(line)
        out.append(_unquote(match.group(1)) if match else line + "\n")
    return "".join(out)


def _unquote(body: str) -> str:
    raw = bytearray()
    for match in _C_ESCAPE.finditer(body):
        escape, literal = match.groups()
        if literal is not None:
            raw += literal.encode()
        elif escape.isdigit():
            raw.append(int(escape, 8) & 0xFF)
        else:
            raw += _ESCAPES.get(escape, escape).encode()
    return raw.decode("utf-8", errors="replace")


def _coords(value: str) -> str:
    return "(" + ",".join(part.strip() for part in value.split(",")) + ")"


def breakpoint_condition(block: str, thread: str) -> str:
    """A cuda-gdb condition selecting one thread, e.g. ``blockIdx.x == 0 && threadIdx.x == 77``.

    ``block`` and ``thread`` are coordinates like ``"(0,0,0)"``; y and z are only tested when
    they are not 0.
    """
    parts = []
    for var, value in (("blockIdx", block), ("threadIdx", thread)):
        for axis, number in zip("xyz", value.strip("()").split(",")):
            if axis == "x" or number.strip() != "0":
                parts.append(f"{var}.{axis} == {number.strip()}")
    return " && ".join(parts)


def _location(facts: dict[str, str], file: str, line: str, block: str, thread: str) -> None:
    facts["source"] = f"{file}:{line}"
    facts["block"] = _coords(block)
    facts["thread"] = _coords(thread)
    condition = breakpoint_condition(facts["block"], facts["thread"])
    facts["breakpoint"] = f"{posixpath.basename(file)}:{line} if {condition}"


def _location_facts(text: str, facts: dict[str, str]) -> None:
    asserts = list(_ASSERT.finditer(text))
    if asserts:
        first = asserts[0]
        _location(facts, first["file"], first["line"], first["block"], first["thread"])
        facts["assert_condition"] = first["cond"]
        facts["assert_function"] = first["func"]
        if len(asserts) > 1:
            facts["assert_count"] = str(len(asserts))
        if re.search(r"/aten/|/ATen/|/c10/|/torch/", first["file"]):
            facts["in_pytorch"] = "yes"
    access = _SANITIZER_ACCESS.search(text) or _MEMCHECK_ONE_LINE.search(text)
    if access:
        facts["access"] = f"{access['what']} of {access['size']} bytes"
        kernel = access["where"].strip().split("(")[0].split()[-1:] or [""]
        if kernel[0]:
            facts["kernel"] = kernel[0]
        if "source" not in facts:
            _location(facts, access["file"], access["line"], access["block"], access["thread"])
    exception = _GDB_EXCEPTION.search(text)
    if exception:
        facts["exception_code"] = exception.group(1)
        facts["exception_name"] = exception.group(2).strip()
        frame = _GDB_KERNEL_FRAME.search(text, exception.end())
        if frame:
            facts.setdefault("kernel", frame["kernel"])
            if frame["grid"]:
                facts["launch"] = f"grid ({frame['grid']}), block ({frame['dim']})"
            facts.setdefault("source", f"{frame['file']}:{frame['line']}")
        focus = _MI_FOCUS.search(text)
        if focus and "block" not in facts:
            file, _, line = facts["source"].rpartition(":")
            _location(facts, file, line, focus["block"], focus["thread"])


def _error_facts(text: str, facts: dict[str, str]) -> None:
    hit = _PROGRAM_HIT.search(text)
    if hit:
        facts["cuda_error"] = f"{hit['err']} ({hit['code']})"
        facts["error_message"] = hit["msg"]
        facts["api_call"] = hit["call"]
    else:
        name = _CUDA_ERROR_NAME.search(text)
        if name:
            facts["cuda_error"] = name.group(1)
    message = _CUDA_ERROR_TEXT.search(text)
    if message:
        facts.setdefault("error_message", message["msg"].strip())
    cublas = _CUBLAS_CALL.search(text)
    if cublas:
        facts["cublas_call"] = cublas["call"]


def _script_facts(text: str, facts: dict[str, str]) -> None:
    frames = [(m["path"], m["line"]) for m in _PY_FRAME.finditer(text)]
    frames += [(m["path"], m["line"]) for m in _HOST_MODULE_FRAME.finditer(text)]
    own = [(path, line) for path, line in frames if not _LIBRARY_PATH.search(path)]
    if own:
        facts["script"] = own[0][0]
        facts["user_line"] = f"{own[-1][0]}:{own[-1][1]}"


def to_bytes(number: str, unit: str) -> int:
    """``("2.00", "GiB")`` -> 2147483648."""
    return int(float(number) * _UNITS[unit])


def _oom_facts(text: str, facts: dict[str, str]) -> None:
    sizes: dict[str, int] = {}
    for name, pattern in _OOM_PATTERNS.items():
        match = pattern.search(text)
        if match:
            number, unit = [g for g in match.groups() if g is not None][:2]
            facts[name] = f"{number} {unit}"
            sizes[name] = to_bytes(number, unit)
    gpu = re.search(r"\bGPU (\d+)\b", text)
    if sizes and gpu:
        facts["gpu"] = gpu.group(1)
    tried, unallocated, total = (
        sizes.get(name) for name in ("tried_to_allocate", "reserved_unallocated", "gpu_total")
    )
    if tried and unallocated and total and unallocated >= max(tried, FRAGMENTED_SHARE * total):
        facts["fragmentation"] = (
            f"{facts['reserved_unallocated']} cached but unused, {unallocated / total:.0%} of "
            "the GPU"
        )
    advice = _oom_advice(sizes, facts)
    if advice:
        facts["oom_advice"] = advice


def _oom_advice(sizes: dict[str, int], facts: dict[str, str]) -> str:
    tried, total = sizes.get("tried_to_allocate"), sizes.get("gpu_total")
    if tried is None:
        return ""
    if total is not None and tried > total:
        return (
            f"The one allocation ({facts['tried_to_allocate']}) is larger than the whole GPU "
            f"({facts['gpu_total']}): no allocator setting helps; make that tensor smaller "
            "(batch, resolution, sequence length) or split the work."
        )
    unallocated = sizes.get("reserved_unallocated", 0)
    if unallocated >= tried and "fragmentation" in facts:
        return (
            f"PyTorch holds {facts['reserved_unallocated']} reserved but unallocated - enough "
            "for this request, but in pieces too small for it (fragmentation)."
        )
    if unallocated >= tried:
        return (
            f"PyTorch holds {facts['reserved_unallocated']} reserved but unallocated, more than "
            "this request but little of the GPU: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
            "may let this allocation through, yet the GPU is full"
            + (f" ({facts['allocated_by_pytorch']} allocated by PyTorch)"
               if "allocated_by_pytorch" in facts else "")
            + ": the program needs less memory."
        )
    in_use, free = sizes.get("process_in_use"), sizes.get("gpu_free")
    if total and in_use is not None and free is not None and in_use + free < 0.9 * total:
        return (
            "Other processes hold a large part of the GPU memory (this process uses "
            f"{facts['process_in_use']} of {facts['gpu_total']}, {facts['gpu_free']} free): "
            "check the GPU pane or nvidia-smi."
        )
    if free is not None and free >= tried:
        return (
            f"{facts['gpu_free']} is free, more than the {facts['tried_to_allocate']} asked "
            "for, yet no contiguous block of that size exists (fragmentation): try "
            "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True or smaller tensors."
        )
    return (
        f"The request ({facts['tried_to_allocate']}) does not fit in the free memory"
        + (f" ({facts['gpu_free']})" if "gpu_free" in facts else "")
        + ": this process itself fills the GPU."
    )


def _environment_facts(text: str, facts: dict[str, str]) -> None:
    arch = _ARCH_WARNING.search(text)
    if arch:
        facts["gpu_name"] = arch["gpu"].strip()
        facts["gpu_capability"] = arch["cap"]
        if arch["archs"]:
            facts["supported_archs"] = arch["archs"].strip()
    mismatch = _VERSION_MISMATCH.search(text)
    if mismatch:
        facts["detected_cuda"] = mismatch["found"]
        facts["torch_cuda"] = mismatch["torch"]
    library = _MISSING_LIBRARY.search(text)
    if library:
        facts["missing_library"] = library.group(1)
    leaked = _LEAK_SUMMARY.search(text)
    if leaked:
        facts["leaked"] = f"{leaked['bytes']} bytes in {leaked['count']} allocations"
    driver = _OLD_DRIVER.search(text)
    if driver:
        number = int(driver.group(1))
        facts["driver_cuda"] = f"{number // 1000}.{number % 1000 // 10}"


def extract_facts(text: str) -> dict[str, str]:
    """All facts found in already-:func:`normalize`-d ``text``."""
    facts: dict[str, str] = {}
    _location_facts(text, facts)
    _error_facts(text, facts)
    _script_facts(text, facts)
    _oom_facts(text, facts)
    _environment_facts(text, facts)
    device_facts(text, facts)
    nccl_facts(text, facts)
    cudnn_facts(text, facts)
    return facts
