/**
 * What the HTML report's Timeline, Memory and Module views draw, beyond the facts rules match on: a bounded window of
 * per-launch spans around one step, the memory curve, and time per {@code nn.Module}. Read from the profile a second
 * time, only when an HTML report is written ({@code ProfileReader.detail}), so a lint without it pays nothing.
 */
package dlproflint.detail;
