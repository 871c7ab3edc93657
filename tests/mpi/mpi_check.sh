#!/usr/bin/env bash
# mpi_check.sh CLI MPIEXEC NP UCR_DIR WORKDIR MATRIX_EQUAL: warplab-cli dm, patterns and search under
# `mpirun -n NP` against one process (byte for byte), and failing ranks. Prints one line per
# check; exit 1 on a failure (a missing data file of tests/data is one).
set -u
cli=$1 mpiexec=$2 np=$3 ucr=$4 work=$5 matrix_equal=$6
train=$ucr/ECG200/ECG200_TRAIN.txt test=$ucr/ECG200/ECG200_TEST.txt
[ -f "$train" ] && [ -f "$test" ] || { echo "FAIL $ucr/ECG200 not found (tests/data)"; exit 1; }
# CI runs as root on two cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fails=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
mpi() { "$mpiexec" --oversubscribe -n "$np" "$cli" "$@"; }
same() {  # name file1 file2
  if [ -s "$2" ] && cmp -s "$2" "$3"; then pass "$1 ($(stat -c %s "$2") bytes identical)"; else fail "$1"; fi
}

# dm: all pairs to .npy (every rank writes its tiles by offset), TRAIN x TEST to stdout CSV and
# all pairs to .h5 (through rank 0).
"$cli" dm --queries "$train" --label-column --metric cdtw --band 5 --backend cpu --out one.npy
mpi dm --queries "$train" --label-column --metric cdtw --band 5 --backend cpu --out many.npy
same "dm cdtw all pairs .npy, $np ranks == 1 process" one.npy many.npy
[ ! -e many.npy.partial ] && pass "no temporary .npy left after success" || fail "many.npy.partial left behind"
"$cli" dm --queries "$train" --targets "$test" --label-column --metric dtw --sqrt --backend cpu > one.csv
mpi dm --queries "$train" --targets "$test" --label-column --metric dtw --sqrt --backend cpu > many.csv
same "dm dtw TRAIN x TEST CSV on stdout, $np ranks == 1 process" one.csv many.csv
"$cli" dm --queries "$test" --label-column --metric twed --backend cpu --out one.h5
mpi dm --queries "$test" --label-column --metric twed --backend cpu --out many.h5
# .h5 object headers carry modification times: compare the contents.
"$matrix_equal" one.h5 many.h5 > /dev/null && pass "dm twed all pairs .h5, $np ranks == 1 process (names and values identical)" \
  || fail "dm twed all pairs .h5, $np ranks == 1 process"

# patterns: a tiny synthetic channel (each rank ranks its patterns' rows, rank 0 merges).
P=(patterns --synthetic 200000 --synthetic-seizure 8000 --epoch 256 --stride 64 --band 8 --backend cpu)
"$cli" "${P[@]}" > pat_one.csv
mpi "${P[@]}" > pat_many.csv
same "patterns ranking, $np ranks == 1 process" pat_one.csv pat_many.csv
# patterns --dm-out: every rank writes its pattern rows of the .npy in place.
"$cli" "${P[@]}" --dm-out pat_one.npy > /dev/null
mpi "${P[@]}" --dm-out pat_many.npy > pat_many_dm.csv
same "patterns --dm-out .npy, $np ranks == 1 process" pat_one.npy pat_many.npy
same "patterns ranking with --dm-out, $np ranks == 1 process" pat_one.csv pat_many_dm.csv
[ ! -e pat_many.npy.partial ] && pass "patterns: no temporary .npy left" || fail "pat_many.npy.partial left behind"
mpi "${P[@]}" --dm-out pat_many.h5 > /dev/null 2> pat_h5.log
rc=$?
[ $rc -eq 2 ] && grep -q "dm-out" pat_h5.log && [ ! -e pat_many.h5 ] && pass "patterns --dm-out .h5 under mpirun refused by name: exit 2" \
  || { fail "patterns --dm-out .h5 under mpirun: exit $rc"; cat pat_h5.log; }
WARPLAB_MPI_FAIL=1 mpi "${P[@]}" --dm-out pat_failed.npy > /dev/null 2> pat_failed.log
rc=$?
[ $rc -ne 0 ] && [ ! -e pat_failed.npy ] && [ ! -e pat_failed.npy.partial ] && pass "rank 1 fails in patterns --dm-out: exit $rc, no .npy" \
  || { fail "rank 1 fails in patterns --dm-out: exit $rc"; ls pat_failed*; }

# search: a query from TEST in the concatenated TRAIN series (reference stretches per rank).
awk 'NR==3 { for (i = 2; i <= NF; ++i) print $i }' "$test" > query.txt
awk '{ for (i = 2; i <= NF; ++i) print $i }' "$train" > reference.txt
"$cli" search --query query.txt --reference reference.txt --top 7 --backend cpu > search_one.csv
mpi search --query query.txt --reference reference.txt --top 7 --backend cpu > search_many.csv
same "search top 7 in $(wc -l < reference.txt) samples, $np ranks == 1 process" search_one.csv search_many.csv

# The same reference as a 1-D float64 .npy: each rank reads only its stretch of the values.
npy() {  # text values on stdin -> 1-D float64 .npy on stdout; NAN=i makes value i NaN
perl -e 'my @v = map { chomp; $_ } <STDIN>; $v[$ENV{NAN}] = 9**9**9 / 9**9**9 if defined $ENV{NAN}; my $d = "{\x27descr\x27: \x27<f8\x27, \x27fortran_order\x27: False, \x27shape\x27: (" . scalar(@v) . ",), }";
  $d .= " " x ((64 - (10 + length($d) + 1) % 64) % 64) . "\n"; binmode STDOUT;
  print "\x93NUMPY\x01\x00", pack("v", length $d), $d, pack("d<*", @v)'
}
npy < reference.txt > reference.npy
for mode in subsequence window; do
  "$cli" search --query query.txt --reference reference.npy --top 7 --mode $mode --backend cpu > npy_one.csv
  mpi search --query query.txt --reference reference.npy --top 7 --mode $mode --backend cpu > npy_many_$mode.csv
  [ $mode = subsequence ] && same "subsequence search of the .npy reference == of the text reference" search_one.csv npy_one.csv
  same "$mode search of a .npy reference read by parts, $np ranks == 1 process" npy_one.csv npy_many_$mode.csv
done

# A NaN in the last rank's stretch: only that rank reads it, and says where it is.
last=$(( $(wc -l < reference.txt) - 2 ))
NAN=$last npy < reference.txt > nan.npy
mpi search --query query.txt --reference nan.npy --backend cpu > nan.csv 2> nan.log
rc=$?
[ $rc -eq 2 ] && grep -q "rank $((np - 1)): .*nan.npy: reference: sample $last is NaN" nan.log && ! grep -q "ranks" nan.log && [ ! -s nan.csv ] \
  && pass "NaN at sample $last of a .npy reference: exit 2, named by the one rank that read it" \
  || { fail "NaN in a .npy reference under mpirun: exit $rc"; cat nan.log; }

# Progress under mpirun: drawn by rank 0 alone, the mean over the ranks: it never goes back
# and ends at 100 %; the list is the same.
for mode in subsequence window; do
  mpi search --query query.txt --reference reference.npy --top 7 --mode $mode --backend cpu --progress > prog.csv 2> prog.log
  tr '\r' '\n' < prog.log | awk -v want="$mode" '/^search: / { v = $2 + 0; if (v < last) bad = 1; last = v; n++ }
    END { exit !(n >= 1 && last == 100 && !bad) }' && same "progress under mpirun ($mode): rank 0's, never back, to 100 %; same list" npy_many_$mode.csv prog.csv \
    || { fail "progress under mpirun ($mode)"; tr '\r' '\n' < prog.log; }
done

# Window search (starts cut in stretches, candidates merged on rank 0), with --stats.
"$cli" search --query query.txt --reference reference.txt --mode window --band-fraction 0.1 --top 7 --backend cpu > win_one.csv
mpi search --query query.txt --reference reference.txt --mode window --band-fraction 0.1 --top 7 --backend cpu --stats > win_many.csv 2> win_many.log
same "window search top 7, $np ranks == 1 process" win_one.csv win_many.csv
grep -q "# pruned by LB_Kim" win_many.log && pass "window search --stats under mpirun: one summary" || { fail "window --stats"; cat win_many.log; }

# A query cut from the searched channel: its own place excluded on every rank (both modes).
edf=$ucr/../chbmit/chb01_03_Seizure.edf edf2=$ucr/../chbmit/chb01_03_NonSeizure.edf
if [ -f "$edf" ] && [ -f "$edf2" ]; then
  Q=(--query "$edf" --channel FP1-F7 --window 10:1 --backend cpu)
  for mode in subsequence window; do
    "$cli" search "${Q[@]}" --top 5 --reference "$edf" --mode $mode > self_one.csv
    mpi search "${Q[@]}" --top 5 --reference "$edf" --mode $mode > self_many.csv 2> self_many.log
    same "self-excluding $mode search, $np ranks == 1 process" self_one.csv self_many.csv
    [ "$(grep -c '# self-exclusion' self_many.log)" = 1 ] && pass "self-exclusion said once under mpirun ($mode)" \
      || { fail "self-exclusion note ($mode)"; cat self_many.log; }
    # Two recordings, every channel: sources shared among the ranks, lists merged on rank 0.
    M=(search "${Q[@]}" --top 9 --reference "$edf" --reference "$edf2" --reference-channel all --mode $mode)
    "$cli" "${M[@]}" > multi_one.csv
    mpi "${M[@]}" > multi_many.csv 2> multi_many.log
    same "$mode search of 2 recordings x every channel, $np ranks == 1 process" multi_one.csv multi_many.csv
    [ "$(grep -c '# self-exclusion' multi_many.log)" = 1 ] && pass "multi-source self-exclusion said once ($mode)" \
      || { fail "multi-source self-exclusion note ($mode)"; cat multi_many.log; }
  done
  # One recording channel as the reference: each rank reads only its stretch of the channel
  # window (and the whole of it with --znorm, whose mean and std are the window's).
  for mode in subsequence window; do
    R=(search --query "$edf" --channel FP1-F7 --window 10:1 --reference "$edf2" --reference-channel F7-T7
       --reference-window 2.5:30 --top 6 --mode $mode --backend cpu)
    "$cli" "${R[@]}" > part_one.csv
    mpi "${R[@]}" > part_many.csv
    same "$mode search of a channel window read by parts, $np ranks == 1 process" part_one.csv part_many.csv
  done
  Z=(search --query "$edf" --channel FP1-F7 --window 10:1 --reference "$edf2" --reference-channel F7-T7 --znorm --top 4 --backend cpu)
  "$cli" "${Z[@]}" > znorm_one.csv
  mpi "${Z[@]}" > znorm_many.csv
  same "z-normalised search of a whole channel, $np ranks == 1 process" znorm_one.csv znorm_many.csv
  WARPLAB_MPI_FAIL=1 mpi "${M[@]}" > failed_multi.csv 2> failed_multi.log
  rc=$?
  [ $rc -ne 0 ] && grep -q "rank 1: injected failure" failed_multi.log && [ ! -s failed_multi.csv ] \
    && pass "rank 1 fails in a multi-source search: exit $rc, no list" || { fail "rank 1 fails in multi-source search: exit $rc"; cat failed_multi.log; }
else
  fail "CHB-MIT excerpts not found beside $ucr (tests/data/chbmit)"
fi

# The subsequence search on the ranks' GPUs (only where the CLI finds one: the GPU machine):
# stretches per rank, the boundary columns handed on, top-k over all ranks, windows on rank 0.
if "$cli" search --query query.txt --reference reference.txt --top 1 --backend cuda > /dev/null 2>&1; then
  G=(search --query query.txt --reference reference.txt --top 7)
  "$cli" "${G[@]}" --backend cuda > gpu_one.csv
  mpi "${G[@]}" --backend cuda > gpu_many.csv
  same "GPU search top 7, $np ranks == 1 process" gpu_one.csv gpu_many.csv
  mpi "${G[@]}" > gpu_auto.csv
  same "GPU search under --backend auto (every rank has a GPU), $np ranks == 1 process" gpu_one.csv gpu_auto.csv
  if [ -f "$edf" ] && [ -f "$edf2" ]; then
    for extra in "" "--znorm" "--cost abs"; do
      L=(search --query "$edf" --channel FP1-F7 --window 10:1 --reference "$edf2" --reference-channel F7-T7 --top 6 --backend cuda $extra)
      "$cli" "${L[@]}" > gpu_ch_one.csv
      mpi "${L[@]}" > gpu_ch_many.csv
      same "GPU search of a whole channel ${extra:-raw}, $np ranks == 1 process" gpu_ch_one.csv gpu_ch_many.csv
    done
    S=(search --query "$edf" --channel FP1-F7 --window 10:1 --reference "$edf" --top 5 --backend cuda)
    "$cli" "${S[@]}" > gpu_self_one.csv
    mpi "${S[@]}" > gpu_self_many.csv
    same "self-excluding GPU search, $np ranks == 1 process" gpu_self_one.csv gpu_self_many.csv
    # One GPU per rank (CUDA_VISIBLE_DEVICES by local rank) against one process on all of them.
    ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
    if [ "$ngpu" -ge "$np" ]; then
      "$cli" "${L[@]}" --devices all > gpu_all_one.csv
      "$mpiexec" --oversubscribe -n "$np" bash -c 'CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK exec "$0" "$@"' "$cli" "${L[@]}" > gpu_per_rank.csv
      same "GPU search, one GPU per rank ($np ranks) == one process on all GPUs" gpu_all_one.csv gpu_per_rank.csv
    fi
  fi
  WARPLAB_MPI_FAIL=1 mpi "${G[@]}" --backend cuda > gpu_failed.csv 2> gpu_failed.log
  rc=$?
  [ $rc -ne 0 ] && grep -q "rank 1: injected failure" gpu_failed.log && [ ! -s gpu_failed.csv ] \
    && pass "rank 1 fails in a GPU search: exit $rc, no list" || { fail "rank 1 fails in a GPU search: exit $rc"; cat gpu_failed.log; }
else
  echo "SKIP: no GPU for warplab-cli here (the GPU search under mpirun is checked on the GPU machine)"
fi

# A rank that fails: the job fails with that rank's message; no output file.
WARPLAB_MPI_FAIL=1 mpi dm --queries "$train" --label-column --metric dtw --backend cpu --out failed.npy > /dev/null 2> failed.log
rc=$?
if [ $rc -ne 0 ] && grep -q "rank 1: injected failure" failed.log && [ ! -e failed.npy ] && [ ! -e failed.npy.partial ]; then
  pass "rank 1 fails: exit $rc, its message printed, no .npy"
else
  fail "rank 1 fails: exit $rc, files: $(ls failed.npy* 2>/dev/null)"; cat failed.log
fi
WARPLAB_MPI_FAIL=1 mpi dm --queries "$train" --targets "$test" --label-column --metric dtw --backend cpu --out failed.h5 > /dev/null 2> failed_h5.log
rc=$?
[ $rc -ne 0 ] && [ ! -e failed.h5 ] && pass "rank 1 fails (.h5 through rank 0): exit $rc, no .h5" || fail "rank 1 fails (.h5): exit $rc"
WARPLAB_MPI_FAIL=1 mpi "${P[@]}" > failed_pat.csv 2> failed_pat.log
rc=$?
[ $rc -ne 0 ] && grep -q "rank 1: injected failure" failed_pat.log && [ ! -s failed_pat.csv ] && pass "rank 1 fails in patterns: exit $rc, no ranking printed" || fail "rank 1 fails in patterns: exit $rc"
# A rank that dies (exit 3 without a word): mpirun ends the job; nothing looks complete.
WARPLAB_MPI_FAIL=1:exit mpi dm --queries "$train" --label-column --metric dtw --backend cpu --out died.npy > /dev/null 2> died.log
rc=$?
[ $rc -ne 0 ] && [ ! -e died.npy ] && pass "rank 1 dies: exit $rc, no died.npy (at most died.npy.partial)" || fail "rank 1 dies: exit $rc"
# Bad input on every rank: exit 2 and rank 0's message naming the file.
mpi dm --queries "$work/none.txt" --metric dtw --backend cpu > /dev/null 2> bad.log
rc=$?
[ $rc -eq 2 ] && pass "missing input: exit 2" || { fail "missing input: exit $rc"; cat bad.log; }

echo "$fails failed"
[ $fails -eq 0 ]
