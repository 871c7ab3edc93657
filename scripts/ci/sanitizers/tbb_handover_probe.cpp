// Does ThreadSanitizer see oneTBB's hand-overs (scripts/ci/tsan-tbb.sh)? Data written before a
// parallel_for and read in its body, and written in the body and read after the join, must not
// be reported; with an argument, a real race (an unsynchronised counter in the body) must be.
// With Debian's libtbb, which is not built with TSan, the race-free run is reported too.
#include <tbb/parallel_for.h>
#include <cstdio>
#include <vector>
int main(int argc, char**) {
    std::vector<int> tiles(4096);
    for (int i = 0; i < 4096; ++i) tiles[i] = i;
    std::vector<long> out(4096);
    long racy = 0;
    for (int round = 0; round < 20; ++round)
        tbb::parallel_for(0, 4096, [&](int i) {
            out[i] = tiles[i] * 2 + round;
            if (argc > 1) ++racy;
        });
    long s = 0;
    for (long v : out) s += v;
    std::printf("%ld %ld\n", s, racy);
}
