#!/usr/bin/env bash
# A first afternoon with WarpLab, replayed with a real mouse and keyboard (xdotool) under Xvfb
# at 1280 x 800: open the sample, mark a seizure, a one-channel query inside it and a
# reference, run every analysis (align, distance matrix, search, patterns, kernels), change
# the montage and the filters, export the matrix, save and reopen a session, open a study.
# A screenshot is saved after each step into OUT_DIR (outside the tree), for a person to look
# at. Not a CI test: it checks nothing by itself.
#
#   scripts/walkthrough.sh OUT_DIR [BUILD_DIR] [STUDY_DIR]
#
# BUILD_DIR defaults to build/ (app/gui/warplab inside); STUDY_DIR to tests/data/chbmit when it
# exists, else ../shared/data/chbmit. Needs Xvfb, xdotool and ImageMagick's import
# (scripts/setup-debian.sh installs them). Settings go to a fresh folder, so that the user's
# layout and recent files are neither used nor changed.
set -euo pipefail

out=${1:?usage: walkthrough.sh OUT_DIR [BUILD_DIR] [STUDY_DIR]}
here=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$here/build}
study=${3:-}
if [[ -z $study ]]; then
  if [[ -d $here/tests/data/chbmit ]]; then study=$here/tests/data/chbmit; else study=$here/../shared/data/chbmit; fi
fi
app=$build/app/gui/warplab
for tool in Xvfb xdotool import; do
  command -v "$tool" >/dev/null || { echo "walkthrough: $tool is missing (scripts/setup-debian.sh installs it)" >&2; exit 2; }
done
[[ -x $app ]] || { echo "walkthrough: $app not built (cmake --build $build --target warplab)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
case $out/ in "$here"/*) echo "walkthrough: OUT_DIR must lie outside the tree" >&2; exit 2 ;; esac

work=$(mktemp -d)
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb=$!
export DISPLAY=$display XDG_CONFIG_HOME=$work/config QT_QPA_PLATFORM=xcb
cleanup() {
  [[ -n ${warplab:-} ]] && kill "$warplab" 2>/dev/null || true
  kill "$xvfb" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
sleep 1

step=0
shot() {  # shot NAME: a screenshot of the whole screen after a short settle
  sleep "${2:-1.5}"
  step=$((step + 1))
  local file
  file=$(printf '%s/%02d-%s.png' "$out" "$step" "$1")
  import -window root "$file"
  echo "$file"
}
key() { xdotool key --clearmodifiers --delay 80 "$@"; sleep 0.4; }
type_text() { xdotool type --delay 30 "$1"; sleep 0.3; }
# drag X1 Y1 X2 Y2 [MODIFIER]: press, move in steps, release (a held modifier such as ctrl).
drag() {
  local mod=${5:-}
  xdotool mousemove "$1" "$2"
  [[ -n $mod ]] && xdotool keydown "$mod"
  xdotool mousedown 1
  for f in 1 2 3 4 5; do xdotool mousemove $(($1 + ($3 - $1) * f / 5)) $(($2 + ($4 - $2) * f / 5)); sleep 0.05; done
  xdotool mouseup 1
  [[ -n $mod ]] && xdotool keyup "$mod"
  sleep 0.5
}
# file_dialog PATH: types PATH into the open file dialog's name field and accepts.
file_dialog() {
  sleep 1.2
  key ctrl+a
  type_text "$1"
  key Return
  sleep 1
}
wait_jobs() { sleep "${1:-3}"; }

# 1. First start: the bundled sample.
"$app" >"$work/warplab.log" 2>&1 &
warplab=$!
sleep 4
shot open-sample

# The traces (the central view) at the default layout: a 1280 x 800 window at the top left.
# Times are chosen in pixels of that view; the sample's first page is 0-10 s.
tx() { echo $((traceLeft + ($1 * traceWidth) / 100)); }  # x at PERCENT of the window's width
traceLeft=330 traceWidth=880 traceTop=150 traceBottom=700

# 2. Mark a seizure over all channels (S, drag), 3. a one-channel query inside it (Q,
# Ctrl+drag), 4. a reference elsewhere (R, drag).
key s
drag "$(tx 30)" 300 "$(tx 60)" 300
shot mark-seizure
key q
drag "$(tx 38)" 260 "$(tx 52)" 260 ctrl
shot mark-query-inside-seizure
key r
drag "$(tx 70)" 260 "$(tx 85)" 260 ctrl
shot mark-reference

# 5. Every analysis, each from its shortcut.
key ctrl+l; wait_jobs 4; shot align
key ctrl+m; wait_jobs 6; shot distance-matrix
key ctrl+f; wait_jobs 8; shot search
key ctrl+p; wait_jobs 10; shot patterns
key ctrl+k; wait_jobs 20; shot kernels

# 6. A bipolar montage of three derivations (Ctrl+Shift+M; Ctrl+Return accepts the text).
key ctrl+shift+m
sleep 1
key ctrl+a
type_text "FP1-F7"; key Return; type_text "F7-T7"; key Return; type_text "T7-P7"
shot montage-dialog 0.5
key Tab
key Return
shot montage-applied

# 7. Filters 1-30 Hz and a 60 Hz notch (Ctrl+T).
key ctrl+t
sleep 1
key ctrl+a; type_text "1"; key Tab; key ctrl+a; type_text "30"; key Tab
key 6
shot filter-dialog 0.5
key Return
shot filters-on-traces

# 8. The distance matrix of the montage, exported from its dock's button.
key ctrl+m; wait_jobs 4; shot distance-matrix-montage
xdotool mousemove "${EXPORT_X:-1200}" "${EXPORT_Y:-760}" click 1
file_dialog "$work/distances.csv"
shot matrix-exported 0.5

# 9. Save the session (Ctrl+S), open another recording, reopen the session (Ctrl+Shift+O).
key ctrl+s
file_dialog "$work/afternoon.warplab.json"
shot session-saved 0.5
key ctrl+o
file_dialog "$study/chb01_03_NonSeizure.edf"
shot other-recording
key ctrl+shift+o
file_dialog "$work/afternoon.warplab.json"
shot session-reopened

# 10. A study: File > Open study (folder), the CHB-MIT excerpts.
key alt+f
key t
file_dialog "$study"
sleep 3
shot study-open 2

# 11. The keys after all those dialogs: S marks seizures, "-" zooms out the amplitude.
key q
shot keys-after-dialogs 0.5

# 12. F1: the keys and gestures.
key F1
shot help 1
key Escape

echo "walkthrough: $step screenshots in $out"
