/**
 * PyTorch profiler (Kineto) Chrome-trace reader: {@code .json} and {@code .json.gz}, from the 2021
 * bare-array format to 2025 traces with {@code baseTimeNanoseconds}. The trace is parsed with
 * Jackson's streaming API in one pass; GPU activities are kept in primitive columns (no object per
 * event) until the end of the file, when the links (correlation, External id) and the iteration
 * windows are known and the facts are aggregated.
 */
package dlproflint.extract.kineto;
