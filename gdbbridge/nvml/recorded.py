"""GPU samples in a session recording, so that a replay's GPU pane shows what the GPU did.

A recording session samples NVML beside gdb and writes each snapshot into the transcript as the
answer to the virtual command ``-cudatui-gpu-sample`` (like the host stack)::

    999999999-cudatui-gpu-sample
    999999999^done,snapshot="{\\"timestamp\\": 1764586800.1, \\"host\\": {...}, \\"gpus\\": [...]}"

(one line: the snapshot as :func:`~cudatui.gdbbridge.nvml.models.snapshot_to_dict` JSON, quoted
as an MI c-string by the one quoting builder). A replay answers it like any query of the stop it
was recorded at, so the samples of a stop are served at that stop, in recorded order
(:meth:`cudatui.gdbbridge.Debugger.recorded_gpu_sample`); :class:`RecordedSource` makes them a
Sampler's source, so the GPU pane of a replay shows them as it shows NVML.
"""

from __future__ import annotations

import json
from typing import Any
from collections.abc import Callable, Mapping

from cudatui.gdbbridge.host.encoding import RECORD_TOKEN
from cudatui.gdbbridge.nvml.models import Snapshot, snapshot_from_dict, snapshot_to_dict
from cudatui.gdbbridge.nvml.sampler import NvmlUnavailable
from cudatui.gdbbridge.session.mi import build, quote

COMMAND = "-cudatui-gpu-sample"


def record(write: Callable[[str, str], None], snapshot: Snapshot) -> None:
    """Write the virtual exchange for ``snapshot``; ``write`` takes (direction, line)."""
    write("in", build(RECORD_TOKEN, COMMAND))
    write("out", f"{RECORD_TOKEN}^done,snapshot={quote(json.dumps(snapshot_to_dict(snapshot)))}")


def decode(payload: Mapping[str, Any]) -> Snapshot:
    """The snapshot of a result payload; ValueError when it is not one."""
    text = payload.get("snapshot")
    if not isinstance(text, str):
        raise ValueError("the recorded GPU sample holds no snapshot")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"the recorded GPU sample is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError("the recorded GPU sample is not a snapshot")
    return snapshot_from_dict(data)


class RecordedSource:
    """Snapshots from a recording: ``fetch()`` gives the one recorded at the replay's current
    stop (None when it has none there), called from the sampler's thread."""

    def __init__(self, fetch: Callable[[], Snapshot | None]) -> None:
        self._fetch = fetch

    def read(self) -> Snapshot:
        snapshot = self._fetch()
        if snapshot is None:
            raise NvmlUnavailable("GPU samples: not in this recording (it was made without them, or not at this stop)")
        return snapshot

    def close(self) -> None:
        """Nothing to release."""
