#!/usr/bin/env bash
# Downloads a dlprof-lint release archive and its .sha256, checks the checksum and unpacks it.
# Environment: DLPROF_LINT_ARCHIVE_URL (http(s):// or file://), DLPROF_LINT_INSTALL_DIR.
set -euo pipefail

url="${DLPROF_LINT_ARCHIVE_URL:?DLPROF_LINT_ARCHIVE_URL is not set}"
dir="${DLPROF_LINT_INSTALL_DIR:?DLPROF_LINT_INSTALL_DIR is not set}"
name="${url##*/}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

fetch() {
  curl --fail --silent --show-error --location --retry 3 --output "$2" "$1" \
    || { echo "::error title=dlprof-lint::cannot download $1"; exit 1; }
}
fetch "$url" "$tmp/$name"
fetch "$url.sha256" "$tmp/$name.sha256"
if command -v sha256sum >/dev/null 2>&1; then check=(sha256sum --check --status); else check=(shasum -a 256 --check --status); fi
(cd "$tmp" && "${check[@]}" "$name.sha256") \
  || { echo "::error title=dlprof-lint::$name does not match its published SHA-256 checksum"; exit 1; }

rm -rf "$dir"
mkdir -p "$dir"
tar -xzf "$tmp/$name" -C "$dir" --strip-components=1
"$dir/bin/dlprof-lint" --version
