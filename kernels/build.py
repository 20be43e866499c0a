"""Compile the teaching kernels with debug info into cached shared libraries.

Every lesson's ``.cu`` is built with ``nvcc -g -G -shared -Xcompiler -fPIC``
for one GPU architecture into ``<user cache>/cudatui/kernels/<key>/lib<name>.so``.
The key hashes the source text and path, the architecture, the flags and
``nvcc --version``, so an edit, another GPU or another toolkit gives a fresh
build, and an unchanged one is reused. ``-lineinfo`` is not passed: ``-G``
already carries full line information, and nvcc and ptxas both warn that
they ignore ``-lineinfo`` next to ``-G``.

Usage: ``python -m cudatui.kernels.build [--arch sm_90] [--all | LESSON ...]``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import platformdirs

from cudatui.kernels.lessons import KERNELS_DIR, LESSONS, LessonError, get_lesson

DEBUG_FLAGS = ("-g", "-G", "-shared", "-Xcompiler", "-fPIC")
"""nvcc flags for every lesson library (host and device debug info, PIC .so)."""

DEFAULT_ARCH = "sm_90"
"""Used when neither CUDATUI_ARCH, nvidia-smi nor torch tells the GPU's arch."""

ARCH_ENV = "CUDATUI_ARCH"

CUDA_ROOTS = ("/usr/local/cuda",)
"""Toolkit folders searched for bin/nvcc after PATH and $CUDA_HOME."""

_ARCH_FORMS = (
    re.compile(r"^sm_(\d{2,3}[a-z]?)$"),
    re.compile(r"^compute_(\d{2,3}[a-z]?)$"),
    re.compile(r"^(\d{2,3}[a-z]?)$"),
)
_DOTTED = re.compile(r"^(\d{1,2})\.(\d)$")


class BuildError(RuntimeError):
    """nvcc is missing or failed; ``str()`` is one line, ``stderr`` holds nvcc's output."""

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.stderr = stderr


def normalize_arch(arch: str) -> str:
    """Turn ``sm_90``, ``compute_90``, ``90`` or ``9.0`` into ``sm_90``."""
    text = arch.strip().lower()
    dotted = _DOTTED.match(text)
    if dotted:
        return f"sm_{dotted.group(1)}{dotted.group(2)}"
    for form in _ARCH_FORMS:
        match = form.match(text)
        if match:
            return f"sm_{match.group(1)}"
    raise BuildError(f"not a GPU architecture: {arch!r} (expected e.g. sm_90, 90 or 9.0)")


def _arch_from_nvidia_smi() -> str | None:
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        done = subprocess.run(
            [smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    first = done.stdout.strip().splitlines()[:1]
    if done.returncode != 0 or not first:
        return None
    try:
        return normalize_arch(first[0])
    except BuildError:
        return None


def _arch_from_torch() -> str | None:
    if "torch" not in sys.modules:
        return None
    torch = sys.modules["torch"]
    try:
        if not torch.cuda.is_available():
            return None
        major, minor = torch.cuda.get_device_capability()
    except RuntimeError:
        return None
    return f"sm_{major}{minor}"


def detect_arch() -> str:
    """The arch to build for: $CUDATUI_ARCH, else nvidia-smi, else torch, else sm_90.

    torch is consulted only when the caller already imported it (importing
    torch just to ask takes seconds).
    """
    override = os.environ.get(ARCH_ENV, "").strip()
    if override:
        return normalize_arch(override)
    return _arch_from_nvidia_smi() or _arch_from_torch() or DEFAULT_ARCH


def find_nvcc() -> str:
    """Path of nvcc: on PATH, else under $CUDA_HOME or /usr/local/cuda; BuildError if none."""
    found = shutil.which("nvcc")
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME", ""), *CUDA_ROOTS):
        candidate = Path(root, "bin", "nvcc")
        if root and candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    raise BuildError("nvcc not found: install the CUDA toolkit or put nvcc on PATH (or set CUDA_HOME)")


def nvcc_version(nvcc: str) -> str:
    """The full ``nvcc --version`` text (part of the cache key)."""
    try:
        done = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=60, check=False)
    except OSError as exc:
        raise BuildError(f"cannot run {nvcc}: {exc.strerror}") from exc
    if done.returncode != 0:
        raise BuildError(f"{nvcc} --version failed with exit code {done.returncode}", done.stderr)
    return done.stdout


def cache_key(source_text: str, source_path: Path, arch: str, version: str) -> str:
    """Hex digest naming one build: source text and path, arch, flags, nvcc version."""
    digest = hashlib.sha256()
    for part in (source_text, str(source_path), arch, " ".join(DEBUG_FLAGS), version):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:20]


def default_cache_root() -> Path:
    """``<user cache dir>/cudatui/kernels``."""
    return Path(platformdirs.user_cache_dir("cudatui")) / "kernels"


def build_source(
    source: Path,
    arch: str | None = None,
    cache_root: Path | None = None,
    nvcc: str | None = None,
) -> Path:
    """Compile ``source`` (unless cached) and return the path of its ``.so``."""
    source = Path(source).resolve()
    if not source.is_file():
        raise BuildError(f"no such CUDA source: {source}")
    arch = normalize_arch(arch) if arch else detect_arch()
    nvcc = nvcc or find_nvcc()
    key = cache_key(source.read_text(encoding="utf-8"), source, arch, nvcc_version(nvcc))
    target_dir = (cache_root or default_cache_root()) / key
    target = target_dir / f"lib{source.stem}.so"
    if target.is_file():
        return target
    target_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".lib{source.stem}-", suffix=".so", dir=target_dir)
    os.close(fd)
    command = [nvcc, *DEBUG_FLAGS, f"-arch={arch}", "-o", tmp_name, str(source)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise BuildError(_failure_line(source, done.stderr, done.returncode), done.stderr)
        os.replace(tmp_name, target)
    finally:
        if os.path.exists(tmp_name):
            os.unlink(tmp_name)
    return target


def _failure_line(source: Path, stderr: str, code: int) -> str:
    """One line: the first nvcc error message, or the exit code."""
    errors = [line.strip() for line in stderr.splitlines() if "error" in line.lower()]
    detail = errors[0] if errors else f"exit code {code}"
    return f"nvcc failed to compile {source.name}: {detail}"


def build_lesson(name: str, arch: str | None = None, cache_root: Path | None = None) -> Path:
    """Build the lesson called ``name`` and return its ``.so`` path."""
    return build_source(get_lesson(name).source, arch=arch, cache_root=cache_root)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: build some or all lessons, printing progress."""
    parser = argparse.ArgumentParser(prog="python -m cudatui.kernels.build", description="Build the teaching kernels.")
    parser.add_argument("lessons", nargs="*", help="lesson names (default: all)")
    parser.add_argument("--arch", help=f"GPU architecture, e.g. sm_90 (default: detected, else {DEFAULT_ARCH})")
    parser.add_argument("--all", action="store_true", help="build every lesson")
    args = parser.parse_args(argv)
    try:
        arch = normalize_arch(args.arch) if args.arch else detect_arch()
        names = [lesson.name for lesson in LESSONS] if args.all or not args.lessons else args.lessons
        lessons = [get_lesson(name) for name in names]
    except (BuildError, LessonError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"building {len(lessons)} lesson(s) for {arch} from {KERNELS_DIR}", flush=True)
    for lesson in lessons:
        print(f"  {lesson.name:<11} ...", end=" ", flush=True)
        try:
            library = build_source(lesson.source, arch=arch)
        except BuildError as exc:
            print("failed", flush=True)
            print(f"error: {exc}", file=sys.stderr)
            if exc.stderr:
                print(exc.stderr.rstrip(), file=sys.stderr)
            return 1
        print(library, flush=True)
    return 0

if __name__ == "__main__":
    sys.exit(main())
