"""GPU telemetry through NVML: one timestamped snapshot per tick, N/A where NVML cannot say
(``sampler``), and the frozen snapshots with their JSON form (``models``).
"""
