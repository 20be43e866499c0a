"""Load the lesson libraries with ctypes and call them on torch tensors.

Each wrapper checks its tensors (a torch.Tensor, on a CUDA device, with the
right dtype and size, contiguous) and raises ValueError with a one-line
message otherwise, then calls the lesson's ``extern "C"`` launcher on the
tensors' device pointers. Launchers return only the launch status: errors
inside a kernel surface later, at the next synchronising call, exactly as
they do in real PyTorch code.

torch is imported lazily, so ``import kernels`` works without it.
"""

from __future__ import annotations

import ctypes
import functools
from typing import Any

from cudatui.kernels.build import build_lesson

_P = ctypes.c_void_p
_I = ctypes.c_int

_LAUNCHERS: dict[str, tuple[str, tuple[type, ...]]] = {
    "oob": ("oob_add", (_P, _P, _P, _I, _I)),
    "race": ("race_reduce", (_P, _P, _I, _I, _I)),
    "assert": ("assert_one_hot", (_P, _P, _I, _I, _I)),
    "divergence": ("divergence_scale", (_P, _P, _I, _I)),
    "uninit": ("uninit_relu_sum", (_P, _P, _I, _I)),
    "leak": ("leak_square_plus", (_P, _P, _I, _I)),
    "tile": ("tile_blur", (_P, _P, _I, _I, _I)),
}
"""Lesson name -> (launcher symbol, ctypes argument types); all return int."""

MAX_ELEMENTS = 1 << 26
"""Largest tensor the wrappers accept: the launchers index with int and allocate ``n * 4`` bytes
(well below 2**31); the leak lesson's 256 MiB workspace is this many floats."""


class KernelLaunchError(RuntimeError):
    """A launcher returned a non-zero cudaError_t at launch time."""

    def __init__(self, symbol: str, code: int) -> None:
        super().__init__(f"{symbol} failed to launch: cudaError_t {code}")
        self.code = code


def _torch() -> Any:
    try:
        import torch
    except ImportError as exc:
        raise RuntimeError("the lesson wrappers need PyTorch: pip install torch") from exc
    return torch


@functools.cache
def load_library(name: str) -> ctypes.CDLL:
    """Build (or reuse) the lesson's ``.so``, load it and declare its launcher."""
    symbol, argtypes = _LAUNCHERS[name]
    library = ctypes.CDLL(str(build_lesson(name)))
    launcher = getattr(library, symbol)
    launcher.argtypes = list(argtypes)
    launcher.restype = ctypes.c_int
    return library


def check_tensor(
    tensor: Any,
    name: str,
    dtype: Any,
    *,
    numel: int | None = None,
    shape: tuple[int, ...] | None = None,
    ndim: int | None = None,
) -> None:
    """Raise ValueError (one line) unless ``tensor`` has the type, dtype, layout and size given.

    The device is checked separately, for all arguments at once, by check_devices.
    """
    torch = _torch()
    if not isinstance(tensor, torch.Tensor):
        raise ValueError(f"{name} must be a torch.Tensor, got {type(tensor).__name__}")
    if tensor.dtype != dtype:
        raise ValueError(f"{name} must have dtype {dtype}, got {tensor.dtype}")
    if not tensor.is_contiguous():
        raise ValueError(f"{name} must be contiguous; call .contiguous() first")
    if ndim is not None and tensor.dim() != ndim:
        raise ValueError(f"{name} must have {ndim} dimension(s), got shape {tuple(tensor.shape)}")
    if shape is not None and tuple(tensor.shape) != shape:
        raise ValueError(f"{name} must have shape {shape}, got {tuple(tensor.shape)}")
    if numel is not None and tensor.numel() != numel:
        raise ValueError(f"{name} must have {numel} element(s), got {tensor.numel()}")
    if not 0 < tensor.numel() <= MAX_ELEMENTS:
        raise ValueError(f"{name} must have 1 to {MAX_ELEMENTS} elements, got {tensor.numel()}")


def check_devices(**tensors: Any) -> None:
    """Raise ValueError (one line) unless all tensors are on one CUDA device."""
    for name, tensor in tensors.items():
        if tensor.device.type != "cuda":
            raise ValueError(f"{name} must be on a CUDA device, got {tensor.device}")
    devices = {str(t.device) for t in tensors.values()}
    if len(devices) > 1:
        listed = ", ".join(f"{name} on {t.device}" for name, t in tensors.items())
        raise ValueError(f"tensors must share one CUDA device: {listed}")


def _launch(name: str, device: Any, *args: Any) -> None:
    symbol = _LAUNCHERS[name][0]
    launcher = getattr(load_library(name), symbol)
    with _torch().cuda.device(device):
        code = launcher(*args)
    if code != 0:
        raise KernelLaunchError(symbol, code)


def add(a: Any, b: Any, out: Any, *, fixed: bool = False) -> Any:
    """Lesson ``oob``: out = a + b (the buggy kernel overruns far past the end)."""
    torch = _torch()
    check_tensor(a, "a", torch.float32)
    n = a.numel()
    check_tensor(b, "b", torch.float32, numel=n)
    check_tensor(out, "out", torch.float32, numel=n)
    check_devices(a=a, b=b, out=out)
    _launch("oob", a.device, a.data_ptr(), b.data_ptr(), out.data_ptr(), n, int(fixed))
    return out


def reduce_sum(x: Any, out: Any, *, fixed: bool = False, threads: int = 256) -> Any:
    """Lesson ``race``: out[0] = sum(x) by a shared-memory tree reduction."""
    torch = _torch()
    if threads not in (32, 64, 128, 256, 512, 1024):
        raise ValueError(f"threads must be a power of two from 32 to 1024, got {threads}")
    check_tensor(x, "x", torch.float32)
    check_tensor(out, "out", torch.float32, numel=1)
    check_devices(x=x, out=out)
    out.zero_()
    _launch("race", x.device, x.data_ptr(), out.data_ptr(), x.numel(), threads, int(fixed))
    return out


def one_hot(labels: Any, out: Any, num_classes: int, *, fixed: bool = False) -> Any:
    """Lesson ``assert``: out[i, labels[i] - 1] = 1 for 1-based int64 labels."""
    torch = _torch()
    if num_classes < 1:
        raise ValueError(f"num_classes must be at least 1, got {num_classes}")
    check_tensor(labels, "labels", torch.int64, ndim=1)
    n = labels.numel()
    check_tensor(out, "out", torch.float32, shape=(n, num_classes))
    check_devices(labels=labels, out=out)
    out.zero_()
    _launch("assert", labels.device, labels.data_ptr(), out.data_ptr(), n, num_classes, int(fixed))
    return out


def scale_by_parity(x: Any, out: Any, *, fixed: bool = False) -> Any:
    """Lesson ``divergence``: out[i] = x[i] * (2 if i is even else 3), int32."""
    torch = _torch()
    check_tensor(x, "x", torch.int32)
    check_tensor(out, "out", torch.int32, numel=x.numel())
    check_devices(x=x, out=out)
    _launch("divergence", x.device, x.data_ptr(), out.data_ptr(), x.numel(), int(fixed))
    return out


def relu_sum(x: Any, total: Any, *, fixed: bool = False) -> Any:
    """Lesson ``uninit``: total[0] = sum(relu(x)) through an intermediate buffer."""
    torch = _torch()
    check_tensor(x, "x", torch.float32)
    check_tensor(total, "total", torch.float32, numel=1)
    check_devices(x=x, total=total)
    total.zero_()
    _launch("uninit", x.device, x.data_ptr(), total.data_ptr(), x.numel(), int(fixed))
    return total


def square_plus(x: Any, out: Any, *, fixed: bool = False) -> Any:
    """Lesson ``leak``: out = x * x + x (the buggy launcher leaks its workspace)."""
    torch = _torch()
    check_tensor(x, "x", torch.float32)
    check_tensor(out, "out", torch.float32, numel=x.numel())
    check_devices(x=x, out=out)
    _launch("leak", x.device, x.data_ptr(), out.data_ptr(), x.numel(), int(fixed))
    return out


def blur3x3(image: Any, out: Any, *, fixed: bool = False) -> Any:
    """Lesson ``tile``: out = 3x3 mean of a 2-D float32 image, zero padded."""
    torch = _torch()
    check_tensor(image, "image", torch.float32, ndim=2)
    check_tensor(out, "out", torch.float32, shape=tuple(image.shape))
    check_devices(image=image, out=out)
    height, width = image.shape
    _launch("tile", image.device, image.data_ptr(), out.data_ptr(), height, width, int(fixed))
    return out
