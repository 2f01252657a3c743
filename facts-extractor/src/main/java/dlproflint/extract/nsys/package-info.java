/**
 * Nsight Systems SQLite export reader (nsys 2021.3 – 2025.x): schema detection, StringIds resolution,
 * NVTX → CUDA API → GPU work correlation by per-thread interval sweeps and a sort-merge on
 * (pid, correlationId), all over ORDER BY streams so memory grows with distinct ops, not with events.
 */
package dlproflint.extract.nsys;
