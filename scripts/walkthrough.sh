#!/usr/bin/env bash
# A first afternoon with WarpLab, replayed with a real mouse and keyboard (xdotool) under Xvfb
# at 1280 x 800: open the sample, mark a seizure, a one-channel query inside it and a
# reference, run every analysis (align, distance matrix, search, patterns, kernels), change
# the montage and the filters, export the matrix, save and reopen a session, open a study.
# A screenshot is saved after each step into OUT_DIR (outside the tree), for a person to look
# at. Not a CI test: it checks nothing by itself.
#
#   scripts/walkthrough.sh [--wm WINDOW_MANAGER] OUT_DIR [BUILD_DIR] [STUDY_DIR]
#
# --wm starts that window manager (e.g. openbox) on the Xvfb screen before the application, so
# that focus after dialogs is checked as a desktop hands it out; without it no window manager
# runs and Qt manages focus itself. Positions below are read from the window's geometry either way.
# BUILD_DIR defaults to build/ (app/gui/warplab inside); STUDY_DIR to tests/data/chbmit. Needs Xvfb, xdotool and ImageMagick's import
# (scripts/setup-debian.sh installs them). Settings go to a fresh folder, so that the user's
# layout and recent files are neither used nor changed.
set -euo pipefail

wm=
if [[ ${1:-} == --wm ]]; then
  wm=${2:?usage: walkthrough.sh [--wm WINDOW_MANAGER] OUT_DIR [BUILD_DIR] [STUDY_DIR]}
  shift 2
fi
out=${1:?usage: walkthrough.sh [--wm WINDOW_MANAGER] OUT_DIR [BUILD_DIR] [STUDY_DIR]}
here=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$here/build}
study=${3:-$here/tests/data/chbmit}
app=$build/app/gui/warplab
for tool in Xvfb xdotool xwininfo import $wm; do
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
export DISPLAY=$display XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache QT_QPA_PLATFORM=xcb
cleanup() {
  [[ -n ${warplab:-} ]] && kill "$warplab" 2>/dev/null || true
  [[ -n ${wmpid:-} ]] && kill "$wmpid" 2>/dev/null || true
  kill "$xvfb" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
sleep 1
if [[ -n $wm ]]; then
  "$wm" >"$work/wm.log" 2>&1 &
  wmpid=$!
  sleep 1.5
fi

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
# click_in_dialog TITLE DX DY: clicks DX, DY pixels left of and above the bottom-right corner
# of the window titled TITLE (a dialog's OK button, where Return would go to a text field).
click_in_dialog() {
  local id x y w h
  id=$(xdotool search --sync --onlyvisible --name "^$1\$" | tail -1)
  read -r x y w h < <(client_area "$id")
  xdotool mousemove $((x + w - $2)) $((y + h - $3)) click 1
  sleep 0.8
}
# client_area ID: "X Y WIDTH HEIGHT" of a window's own area on the screen (xwininfo: under a
# window manager xdotool's geometry of a reparented window is off by its frame).
client_area() {
  xwininfo -id "$1" | awk '/Absolute upper-left X/ {x=$NF} /Absolute upper-left Y/ {y=$NF}
                           /^ *Width:/ {w=$NF} /^ *Height:/ {h=$NF} END {print x, y, w, h}'
}

# 1. First start: the bundled sample.
"$app" >"$work/warplab.log" 2>&1 &
warplab=$!
sleep 4
shot open-sample

# The traces at the default layout of a 1280 x 800 screen (the window fills it, no window
# manager): t = 0 s at x = 350, 10 s at x = 1262; row 2 (F7-T7) at y = 156, rows 26 px apart.
# Under a window manager the window sits below its title bar: positions are taken from the
# top-left corner of its client area (X, Y), 0, 0 without one.
X=0 Y=0
if [[ -n $wm ]]; then
  id=$(xdotool search --sync --onlyvisible --class warplab | tail -1)
  xdotool windowactivate --sync "$id" 2>/dev/null || true
  read -r X Y W H < <(client_area "$id")
  echo "walkthrough: window at $X,$Y, ${W}x$H under $wm"
fi
tx() { echo $((X + 350 + ($1 * 912) / 100)); }  # x of a time in tenths of a second (0-100)
f7t7=$((Y + 156))

# 2. Mark a seizure over all channels (S, drag; 7.5 s, longer than one 4 s pattern epoch),
# 3. a one-channel query on F7-T7 inside it (Q, Ctrl+drag: it must not move the seizure),
# 4. a reference on F7-T7 after it (R, Ctrl+drag).
key s
drag "$(tx 5)" $((Y + 400)) "$(tx 80)" $((Y + 400))
shot mark-seizure
key q
drag "$(tx 38)" $f7t7 "$(tx 52)" $f7t7 ctrl
shot mark-query-inside-seizure
key r
drag "$(tx 83)" $f7t7 "$(tx 98)" $f7t7 ctrl
shot mark-reference

# 5. Every analysis, each from its shortcut.
key ctrl+l; wait_jobs 4; shot align
key ctrl+m; wait_jobs 6; shot distance-matrix
key ctrl+f; wait_jobs 8; shot search
key ctrl+p; wait_jobs 10; shot patterns
key ctrl+k; wait_jobs 20; shot kernels

# 6. A bipolar montage of three derivations (Ctrl+Shift+M; OK clicked, as Return and Tab go
# into the text).
key ctrl+shift+m
sleep 1
key ctrl+a
type_text "FP1-F7"; key Return; type_text "F7-T7"; key Return; type_text "T7-P7"
shot montage-dialog 0.5
click_in_dialog Montage 136 22
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
key alt+x  # the view's "Export matrix…" button
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

# 11. The keys after all those dialogs still reach the traces: Q chooses Query in "Mark".
key q
shot keys-after-dialogs 0.5

# 12. F1: the keys and gestures.
key F1
sleep 1
key ctrl+End  # the mouse gestures at the end of the list
shot help 1
key Escape

echo "walkthrough: $step screenshots in $out"
