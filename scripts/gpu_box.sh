# Sourced by the GPU-box batch scripts (scripts/gpu_batch*.sh): from the repository root, the
# wheels the device tool carried in .whl (textual, pytest plugins: not installed there) in
# /tmp/site on PYTHONPATH, and $R, where the batch writes what comes back ($OUT/r).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl 2>/dev/null
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
R=$OUT/r; mkdir -p $R
