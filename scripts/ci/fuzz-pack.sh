#!/usr/bin/env bash
# Packs the built fuzz targets for a machine of more cores that has no clang (the GPU machine
# of the device tool, say), so that scripts/fuzz-release.sh runs there unchanged:
#   PACK/scripts/...          fuzz-release.sh, ci/run-fuzz.sh and ci/sanitizers
#   PACK/tests/io/corpus, PACK/tests/fuzz/seeds
#   PACK/bin/fuzz_*           the targets, debug info stripped (crashes still name functions)
#   PACK/lib/                 the shared libraries they load, except glibc's own (the other
#                             machine's glibc must be as new as this one's: 2.36 on Debian 12)
# There: LD_LIBRARY_PATH=PACK/lib FUZZ_BIN=PACK/bin PACK/scripts/fuzz-release.sh MINUTES
#   scripts/ci/fuzz-pack.sh PACK      (after scripts/ci/run-fuzz.sh has built build-fuzz)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
pack="${1:?usage: $0 PACK}"
bin="${BUILD_DIR:-$root/build-fuzz}/tests/fuzz"
targets=(fuzz_edf_header fuzz_edf_file fuzz_text_readers fuzz_session fuzz_regions fuzz_study fuzz_matrix fuzz_events_tsv)
rm -rf "$pack"
mkdir -p "$pack/bin" "$pack/lib" "$pack/scripts/ci" "$pack/tests/io" "$pack/tests/fuzz"
for t in "${targets[@]}"; do
  strip --strip-debug -o "$pack/bin/$t" "$bin/$t"
done
cp "$root/scripts/fuzz-release.sh" "$pack/scripts/"
cp "$root/scripts/ci/run-fuzz.sh" "$pack/scripts/ci/"
cp -r "$root/scripts/ci/sanitizers" "$pack/scripts/ci/"
cp -r "$root/tests/io/corpus" "$pack/tests/io/"
cp -r "$root/tests/fuzz/seeds" "$pack/tests/fuzz/"
# glibc's libraries stay behind: they must match the other machine's loader.
ldd "$bin"/fuzz_* | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u \
  | grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux-x86-64|libresolv)\.so' \
  | while read -r lib; do cp -L "$lib" "$pack/lib/"; done
du -sh "$pack"
