#!/usr/bin/env bash
# Runs dlprof-lint for the action: reports to the requested files, the markdown report to the job summary,
# and the exit code to the step outputs. It exits 0 itself, so that the SARIF and HTML are uploaded first;
# the action's last step fails the job with dlprof-lint's exit code.
# Environment: DLPROF_LINT (the launcher), INPUT_* (the action's inputs), GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP.
set -uo pipefail

dlprof_lint="${DLPROF_LINT:-dlprof-lint}"
out="${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
summary_file="${GITHUB_STEP_SUMMARY:-/dev/null}"
work="$(mktemp -d "${RUNNER_TEMP:-/tmp}/dlprof-lint.XXXXXX")"

# Profiles: one per line (names may hold spaces), or separated by spaces on one line; globs are expanded.
shopt -s nullglob globstar
if [[ "${INPUT_PROFILES:-}" == *$'\n'* ]]; then
  mapfile -t words < <(printf '%s\n' "$INPUT_PROFILES" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d')
else
  read -r -a words <<< "${INPUT_PROFILES:-}"
fi
profiles=()
for w in "${words[@]}"; do
  matches=($w)
  if ((${#matches[@]})); then profiles+=("${matches[@]}"); else profiles+=("$w"); fi
done
if ((${#profiles[@]} == 0)); then
  echo "::error title=dlprof-lint::the 'profiles' input names no profile"
  echo "exit-code=2" >> "$out"
  exit 0
fi

args=("${profiles[@]}" --fail-on "${INPUT_FAIL_ON:-error}" --report text --report "markdown=$work/summary.md")
[[ -n "${INPUT_CONFIG:-}" ]] && args+=(--config "$INPUT_CONFIG")
[[ -n "${INPUT_BASELINE:-}" ]] && args+=(--baseline "$INPUT_BASELINE")
[[ -n "${INPUT_SARIF:-}" ]] && args+=(--report "sarif=$INPUT_SARIF")
[[ -n "${INPUT_HTML:-}" ]] && args+=(--report "html=$INPUT_HTML")
if [[ -n "${INPUT_ARGS:-}" ]]; then
  read -r -a extra <<< "$INPUT_ARGS"
  args+=("${extra[@]}")
fi

"$dlprof_lint" "${args[@]}"
code=$?

if [[ "${INPUT_SUMMARY:-true}" == "true" ]]; then
  if [[ -f "$work/summary.md" ]]; then
    cat "$work/summary.md" >> "$summary_file"
  else
    printf '## dlprof-lint\n\ndlprof-lint exited %s before writing its report; the job log says why.\n' "$code" >> "$summary_file"
  fi
fi

# Compare with the base branch's profile: 'dlprof-lint compare BASE HEAD' (the compare command of dlprof-lint
# releases that have it; an older release says so here instead of failing obscurely).
if [[ -n "${INPUT_COMPARE_AGAINST:-}" ]]; then
  if ! "$dlprof_lint" help compare > /dev/null 2>&1; then
    echo "::error title=dlprof-lint::compare-against needs the 'compare' command, which this dlprof-lint release does not have"
    ((code == 0 || code == 1)) && code=2
  else
    for p in "${profiles[@]}"; do
      "$dlprof_lint" compare "$INPUT_COMPARE_AGAINST" "$p" --fail-on "${INPUT_FAIL_ON:-error}" --report "text=$work/compare.txt"
      c=$?
      if [[ "${INPUT_SUMMARY:-true}" == "true" && -f "$work/compare.txt" ]]; then
        printf '\n### Compared with %s\n\n```text\n' "$INPUT_COMPARE_AGAINST" >> "$summary_file"
        cat "$work/compare.txt" >> "$summary_file"
        printf '```\n' >> "$summary_file"
      fi
      ((c > code)) && code=$c
    done
  fi
fi

echo "exit-code=$code" >> "$out"
[[ -n "${INPUT_SARIF:-}" && -f "$INPUT_SARIF" ]] && echo "sarif-written=true" >> "$out"
[[ -n "${INPUT_HTML:-}" && -f "$INPUT_HTML" ]] && echo "html-written=true" >> "$out"
rm -rf "$work"
exit 0
