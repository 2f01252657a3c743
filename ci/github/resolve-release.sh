#!/usr/bin/env bash
# Which dlprof-lint release the action uses, where it is downloaded from and installed to (step outputs).
# Inputs (environment): INPUT_VERSION, ACTION_REF (github.action_ref), RUNNER_OS_NAME, RUNNER_ARCH_NAME,
# RUNNER_TOOL_CACHE, and DLPROF_LINT_RELEASE_BASE to download from somewhere else than GitHub releases.
set -euo pipefail

version="${INPUT_VERSION:-}"
if [[ -z "$version" ]]; then
  ref="${ACTION_REF:-}"
  if [[ "$ref" =~ ^v?([0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?)$ ]]; then
    version="${BASH_REMATCH[1]}"
  else
    echo "::error title=dlprof-lint::set the action's 'version' input: it is used at '${ref:-an unknown ref}', not at a release tag such as v0.1.0"
    exit 2
  fi
fi
version="${version#v}"
if [[ ! "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]]; then
  echo "::error title=dlprof-lint::'version' must be a release version such as 0.1.0, not '$version'"
  exit 2
fi

# Linux x64 gets the archive with its own Java runtime (jlink); elsewhere the plain archive runs on setup-java's Java.
case "${RUNNER_OS_NAME:-Linux}/${RUNNER_ARCH_NAME:-X64}" in
  Linux/X64) archive="dlprof-lint-$version-linux-x64.tar.gz"; needs_java=false ;;
  *) archive="dlprof-lint-$version.tar.gz"; needs_java=true ;;
esac
base="${DLPROF_LINT_RELEASE_BASE:-https://github.com/dlprof-lint/dlprof-lint/releases/download/v$version}"
install_dir="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-/tmp}}/dlprof-lint/$version/${archive%.tar.gz}"

{
  echo "version=$version"
  echo "url=$base/$archive"
  echo "install-dir=$install_dir"
  echo "needs-java=$needs_java"
  echo "cache-key=dlprof-lint-$version-${archive%.tar.gz}"
} >> "${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
echo "dlprof-lint $version: $base/$archive -> $install_dir"
