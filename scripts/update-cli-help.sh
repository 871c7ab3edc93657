#!/usr/bin/env bash
# Rewrites the help section of docs/CLI.md (between <!-- help:begin --> and <!-- help:end -->)
# from the built program: the `--help` of warplab-cli, of each command and of each `bench`
# subcommand, as it prints them. Run after changing an option, then read the diff.
# Usage: scripts/update-cli-help.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cli="${1:-build}/app/cli/warplab-cli"
[[ -x "$cli" ]] || { echo "$cli: not built (cmake --build ${1:-build} --target warplab-cli)" >&2; exit 2; }
section=$(mktemp)
trap 'rm -f "$section"' EXIT
emit() {  # the words after warplab-cli
  printf '### `warplab-cli %s--help`\n\n```\n' "${*:+$* }"
  local text
  text=$("$cli" "$@" --help)  # $(...) drops the trailing blank lines CLI11 prints
  printf '%s\n' "$text"
  printf '```\n\n'
}
{
  emit
  for c in info dm align search patterns filter psd detect crossval score bench; do emit "$c"; done
  for b in gpu multi cpu window study long-recording spectrogram rescore crossval; do emit bench "$b"; done
} > "$section"
python3 - docs/CLI.md "$section" <<'PY'
import sys
doc, section = sys.argv[1], open(sys.argv[2]).read().rstrip('\n') + '\n'
text = open(doc).read()
begin, end = '<!-- help:begin -->\n', '<!-- help:end -->'
a, b = text.index(begin) + len(begin), text.index(end)
open(doc, 'w').write(text[:a] + section + text[b:])
PY
echo "docs/CLI.md: help section rewritten from $cli"
