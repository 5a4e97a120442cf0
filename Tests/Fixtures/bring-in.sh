#!/usr/bin/env bash
# Brings a file into the repository's own test fixtures, deliberately and with its provenance.
#
#   Tests/Fixtures/bring-in.sh REALDATA_DIR KIND/NAME...   copy real recordings (e.g. gpx/x.gpx)
#   Tests/Fixtures/bring-in.sh --acceptance DIR            refresh the acceptance cases
#
# REALDATA_DIR is a folder of real recordings with a MANIFEST.tsv (columns: file, repo,
# path_in_repo, commit, license, description, sha256). Each named file is checked against its
# manifest row's sha256, copied to Tests/Fixtures/realdata/KIND/NAME, and its row is added to
# Tests/Fixtures/realdata/MANIFEST.tsv. A file without a manifest row, or whose bytes do not
# match it, is refused: no fixture enters the repository without its source and licence.
# Nothing in the tests reads REALDATA_DIR; after this step, the copy is what they read.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
manifest="$here/realdata/MANIFEST.tsv"

usage() { sed -n '2,12p' "$0" >&2; exit 64; }
[ $# -ge 2 ] || usage

if [ "$1" = "--acceptance" ]; then
  source_dir="$2"
  [ -f "$source_dir/expected.json" ] || { echo "bring-in: $source_dir/expected.json not found" >&2; exit 1; }
  mkdir -p "$here/acceptance"
  cp "$source_dir"/* "$here/acceptance/"
  echo "bring-in: acceptance cases copied from $source_dir ($(ls "$source_dir" | wc -l) files)"
  exit 0
fi

source_dir="$1"; shift
source_manifest="$source_dir/MANIFEST.tsv"
[ -f "$source_manifest" ] || { echo "bring-in: $source_manifest not found" >&2; exit 1; }
[ -f "$manifest" ] || head -n 1 "$source_manifest" > "$manifest"

for relative in "$@"; do
  row=$(awk -F'\t' -v f="$relative" '$1 == f' "$source_manifest")
  [ -n "$row" ] || { echo "bring-in: $relative has no row in $source_manifest; refused" >&2; exit 1; }
  expected=$(printf '%s\n' "$row" | cut -f7)
  actual=$(sha256sum "$source_dir/$relative" | cut -d' ' -f1)
  [ "$expected" = "$actual" ] || { echo "bring-in: $relative: sha256 $actual, manifest says $expected; refused" >&2; exit 1; }
  mkdir -p "$here/realdata/$(dirname "$relative")"
  cp "$source_dir/$relative" "$here/realdata/$relative"
  if ! awk -F'\t' -v f="$relative" '$1 == f { found = 1 } END { exit !found }' "$manifest"; then
    printf '%s\n' "$row" >> "$manifest"
  fi
  echo "bring-in: $relative ($(printf '%s\n' "$row" | cut -f5))"
done
