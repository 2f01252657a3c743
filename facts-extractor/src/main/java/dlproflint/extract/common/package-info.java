/**
 * Format-neutral extraction logic shared by every reader (nsys SQLite, Kineto, DLProf database):
 * DLProf's naming and id rules, tensor-core heuristics, iteration splitting, time-breakdown sweeps,
 * API-name and memory-kind decoding, and constant-memory aggregation of op/kernel instances.
 */
package dlproflint.extract.common;
