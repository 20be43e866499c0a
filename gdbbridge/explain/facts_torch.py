"""PyTorch and torch.distributed facts for ``cudatui explain``, from normalized error text.

:func:`device_facts` finds the devices of a device mismatch (and a DataParallel or conv input and
weight on two devices), :func:`nccl_facts` what NCCL and PyTorch's watchdog report (the error,
its last-error line, the ranks, the collectives that timed out), :func:`cudnn_facts` the cuDNN
status and the input of PyTorch's repro snippet. They add to the facts dict of
:func:`cudatui.gdbbridge.explain.facts.extract_facts`; every value is a string, a ``*_advice`` one
a next step.
"""

from __future__ import annotations

import re

_DEVICES_GOT = re.compile(
    r"Expected all tensors to be on the same device, but got (?P<arg>\w+) is on (?P<device>[\w:]+)"
    r", different from other tensors on (?P<common>[\w:]+) \(when checking argument in method "
    r"(?P<op>\w+)\)"
)
_DEVICES_FOUND = re.compile(
    r"Expected all tensors to be on the same (?:common )?device, but found at least two devices, "
    r"(?P<common>[\w:]+) and (?P<device>[\w:]+)!(?: \(when checking ar(?:gu|ug)ment for argument "
    r"(?P<arg>\w+) in method (?P<op>\w+)\))?"
)
_DATA_PARALLEL = re.compile(
    r"module must have its parameters and buffers on device (?P<common>[\w:]+) "
    r"\(device_ids\[0\]\) but found one of them on device: (?P<device>[\w:]+)"
)
_CONV_TYPES = re.compile(
    r"Input type \((?P<input>torch\.[\w.]+)\) and weight type \((?P<weight>torch\.[\w.]+)\) "
    r"should be the same"
)

_NCCL_ERROR = re.compile(
    r"NCCL (?:error|Error \d+)(?: in: \S+?)?[,:] (?P<what>[a-z][a-z ]*[a-z])|NCCL failure \S+ "
    r"'(?P<failure>[^']+)'"
)
_NCCL_VERSION = re.compile(r"NCCL version (\d+\.\d+\.\d+)")
_NCCL_RESULT = re.compile(
    r"\b(nccl(?:SystemError|UnhandledCudaError|InternalError|InvalidUsage|InvalidArgument|"
    r"RemoteError))\b"
)
_NCCL_LAST_ERROR = re.compile(
    r"^(?P<prefix>.*?)Last error:[ \t]*\n(?P=prefix)[ \t]*(?P<msg>\S[^\n]*)", re.M
)
_NCCL_WARN = re.compile(r"NCCL WARN (?P<msg>[^\n]*\S)")
_NCCL_WORK = re.compile(
    r"(?:\[Rank (?P<rank>\d+)\] )?(?:Watchdog caught collective operation timeout: |Work )"
    r"WorkNCCL\(SeqNum=(?P<seq>\d+), OpType=(?P<op>\w+)(?P<rest>(?:[^()]|\(ms\))*)\)"
)
_NCCL_ABORT = re.compile(
    r"NCCL communicator was aborted on rank (?P<rank>\d+)\.\s+Original reason for "
    r"(?:failure|the abort|aborting) was: (?P<reason>[^\n]*\S)"
)
_RANK = re.compile(r"\[[Rr]ank ?(\d+)\]")
_NCCL_ENV = re.compile(r"\b(?:TORCH_)?NCCL_[A-Z][A-Z_]*[A-Z]\b")

_CUDNN_STATUS = re.compile(
    r"(?<!Plan failed with a CuDNNError: cuDNN error: )\b(CUDNN_STATUS_(?!SUCCESS)\w+)"
)
_CUDNN_INPUT = re.compile(
    r"data = torch\.randn\((?P<shape>\[[\d, ]+\]), dtype=(?P<dtype>torch\.\w+)"
)
_CUDNN_LAYER = re.compile(r"net = torch\.nn\.(?P<layer>\w+\([^\n]*\))")
_CUDNN_BENCHMARK = re.compile(r"torch\.backends\.cudnn\.benchmark = (True|False)")


def device_facts(text: str, facts: dict[str, str]) -> None:
    """The two devices of a device mismatch, the tensor and operation, and the fix."""
    match = _DEVICES_GOT.search(text) or _DEVICES_FOUND.search(text)
    if match:
        facts["devices"] = f"{match['common']} and {match['device']}"
        if match["arg"]:
            facts["tensor"] = f"{match['arg']}, on {match['device']}"
            facts["op"] = match["op"]
            facts["device_advice"] = (
                f"`{match['arg']}` is on {match['device']}, the other tensors of {match['op']} on "
                f"{match['common']}: move it (or them) with .to(...) before this call."
            )
    parallel = _DATA_PARALLEL.search(text)
    if parallel:
        facts["devices"] = f"{parallel['common']} and {parallel['device']}"
        facts["tensor"] = f"a parameter or buffer of the module, on {parallel['device']}"
        facts["device_advice"] = (
            f"DataParallel wants the whole model on {parallel['common']} (its device_ids[0]), but "
            f"part of it is on {parallel['device']}: call model.to('{parallel['common']}') before "
            "wrapping it, and check that no layer is created or moved later."
        )
    conv = _CONV_TYPES.search(text)
    if conv:
        places = {name: "cuda" if ".cuda." in conv[name] else "cpu" for name in ("input", "weight")}
        if places["input"] != places["weight"]:
            facts["devices"] = f"{places['input']} and {places['weight']}"
            facts["tensor"] = f"input on {places['input']}, weight on {places['weight']}"


def _rank_key(rank: str) -> int:
    """Ranks in numeric order, an unknown one ("?") first."""
    return int(rank) if rank.isdigit() else -1


def _ranks(ranks: set[str]) -> str:
    """``{"2", "1"}`` -> ``"ranks 1, 2"``."""
    ordered = sorted(ranks, key=_rank_key)
    return ("ranks " if len(ordered) > 1 else "rank ") + ", ".join(ordered)


def nccl_facts(text: str, facts: dict[str, str]) -> None:
    """What NCCL reports: error, result, version, last error, abort, ranks, collectives, env."""
    error = _NCCL_ERROR.search(text)
    if error:
        facts["nccl_error"] = error["what"] or error["failure"]
    for key, pattern in (("nccl_result", _NCCL_RESULT), ("nccl_version", _NCCL_VERSION)):
        match = pattern.search(text)
        if match:
            facts[key] = match.group(1)
    last = _NCCL_LAST_ERROR.search(text)
    if last:
        facts["nccl_last_error"] = last["msg"].strip()
    warn = _NCCL_WARN.search(text)
    if warn:
        facts["nccl_warn"] = warn["msg"]
    abort = _NCCL_ABORT.search(text)
    if abort:
        facts["aborted_rank"] = abort["rank"]
        facts["abort_reason"] = abort["reason"]
    _work_facts(text, facts)
    ranks = {match.group(1) for match in _RANK.finditer(text)}
    if ranks:
        facts["ranks"] = ", ".join(sorted(ranks, key=int))
    names = list(dict.fromkeys(_NCCL_ENV.findall(text)))
    if names:
        facts["nccl_env"] = ", ".join(names)


def _work_facts(text: str, facts: dict[str, str]) -> None:
    """The collectives the watchdog timed out, and on which ranks."""
    works: dict[tuple[str, str], set[str]] = {}
    for work in _NCCL_WORK.finditer(text):
        works.setdefault((work["op"], work["seq"]), set()).add(work["rank"] or "?")
    first = _NCCL_WORK.search(text)
    if first is None:
        return
    timeout = re.search(r"Timeout\(ms\)=(\d+)", first["rest"])
    if timeout:
        facts["timeout"] = f"{timeout.group(1)} ms"
    if len(works) == 1:
        numel = re.search(r"NumelIn=(\d+)", first["rest"])
        facts["collective"] = f"{first['op']}, SeqNum {first['seq']}" + (
            f", {numel.group(1)} elements" if numel else ""
        )
    else:
        groups = sorted(works.items(), key=lambda item: min(map(_rank_key, item[1])))
        facts["collectives"] = "; ".join(
            f"{_ranks(ranks)}: {op} (SeqNum {seq})" for (op, seq), ranks in groups
        )
        facts["nccl_advice"] = (
            "Not all ranks wait in the same collective: if they share one process group, their "
            "code paths diverged - find the collective one rank calls and the others skip."
        )


def cudnn_facts(text: str, facts: dict[str, str]) -> None:
    """The cuDNN status and, from PyTorch's repro snippet, the input, layer and benchmark mode."""
    status = _CUDNN_STATUS.search(text)
    if not status:
        return
    facts["cudnn_status"] = status.group(1)
    data = _CUDNN_INPUT.search(text)
    if data:
        facts["cudnn_input"] = f"{data['shape']} {data['dtype']}"
    layer = _CUDNN_LAYER.search(text)
    if layer:
        facts["cudnn_layer"] = layer["layer"]
    benchmark = _CUDNN_BENCHMARK.search(text)
    if benchmark:
        facts["cudnn_benchmark"] = benchmark.group(1)
