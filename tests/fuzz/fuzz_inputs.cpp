#include "fuzz_inputs.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "compute/core/error.h"
#include "io/edf_header.h"
#include "io/edf_tal.h"
#include "io/events_tsv.h"
#include "io/reference_events.h"
#include "io/matrix_io.h"
#include "io/npy.h"
#include "io/recording.h"
#include "io/regions.h"
#include "io/regions_exchange.h"
#include "io/series_file.h"
#include "io/session.h"
#include "io/study.h"
#include "io/study_summary.h"
#include "io/text_table.h"

namespace warplab::fuzz {

namespace {

std::string_view view(const std::uint8_t* d, std::size_t n) { return {reinterpret_cast<const char*>(d), n}; }

void writeScratch(const std::string& path, const std::uint8_t* d, std::size_t n) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(d), std::streamsize(n));
}

// Bad input must end in an EngineError (IoError is one); anything else escapes and is a bug.
template <typename F>
void expectClean(F&& f) {
    try {
        f();
    } catch (const compute::EngineError&) {
    }
}

void exercise(const io::Recording& rec) {
    for (const auto& s : rec.signals()) {
        const long long n = std::min<long long>(s.samples, 300);
        (void)rec.read(s.index, 0, n);
        (void)rec.read(s.index, s.samples - n, n);
    }
    for (const auto& a : rec.annotations()) (void)a.text.size();
}

}  // namespace

void runEdfHeader(const std::uint8_t* data, std::size_t size) {
    expectClean([&] { (void)io::parseEdfHeader("fuzz.edf", view(data, size), static_cast<long long>(size)); });
    (void)io::edfHeaderSize(view(data, size));
    (void)io::parseTalRecord(view(data, size));
}

void runEdfFile(const std::uint8_t* data, std::size_t size, const std::string& scratch) {
    writeScratch(scratch, data, size);
    expectClean([&] { exercise(*io::Recording::open(scratch)); });
    io::OpenOptions lenient;
    lenient.forceLenient = true;
    expectClean([&] { exercise(*io::Recording::open(scratch, lenient)); });
}

void runTextReaders(const std::uint8_t* data, std::size_t size, const std::string& stem) {
    expectClean([&] { (void)io::parseTextTable("fuzz.txt", view(data, size)); });
    expectClean([&] { (void)io::parseNpy("fuzz.npy", view(data, size)); });
    // Session files are JSON text too: any document must load or be refused with an IoError,
    // and what loads must save back to JSON.
    const auto j = nlohmann::json::parse(view(data, size), nullptr, false);
    if (!j.is_discarded())
        expectClean([&] { (void)io::sessionToJson(io::sessionFromJson(j, "fuzz.json")).dump(); });
    for (const char* ext : {".txt", ".csv", ".npy"}) {
        const std::string p = stem + ext;
        writeScratch(p, data, size);
        expectClean([&] { (void)io::readSeriesFile(p); });
        io::SeriesFileOptions o;
        o.labelColumn = true;
        expectClean([&] { (void)io::readSeriesFile(p, o); });
        o.multivariate = true;
        expectClean([&] { (void)io::readSeriesFile(p, o); });
        expectClean([&] { exercise(*io::Recording::open(p)); });
        if (std::string(ext) != ".txt") expectClean([&] { (void)io::readMatrix(p); });
        std::remove(p.c_str());
    }
}

void runSession(const std::uint8_t* data, std::size_t size, const std::string& stem) {
    const std::string p = stem + ".warplab.json";
    writeScratch(p, data, size);
    expectClean([&] {
        io::Session s = io::loadSession(p);
        (void)io::sessionPathsOutside(s, p);
        io::saveSession(p, s);
        (void)io::loadSession(p);
    });
    std::remove(p.c_str());
}

void runRegions(const std::uint8_t* data, std::size_t size, const std::string& stem) {
    static const std::vector<std::string> channels = {"FP1-F7", "F7-T7", "T8-P8", "T8-P8 (2)"};
    for (const char* ext : {".csv", ".edf"}) {
        const std::string p = stem + "_regions" + ext;
        writeScratch(p, data, size);
        if (std::string(ext) == ".csv")
            expectClean([&] {
                for (const auto& r : io::readRegionsCsv(p, channels)) (void)io::regionAnnotationText(r, channels);
            });
        else
            expectClean([&] { (void)io::readRegionsEdf(p, channels); });
        std::remove(p.c_str());
    }
}

void runStudy(const std::uint8_t* data, std::size_t size, const std::string& stem) {
    namespace fs = std::filesystem;
    const fs::path dir = stem + "-study";
    fs::create_directories(dir);
    const std::string p = (dir / "chb01-summary.txt").string();
    writeScratch(p, data, size);
    expectClean([&] { (void)io::parseChbSummary(p); });
    expectClean([&] { (void)io::seizuresFromChbSummary(p, "chb01_03.edf"); });
    (void)io::looksLikeChbSummary(p);
    expectClean([&] {
        const auto study = io::Study::openSummary(p);
        (void)study->clockText(3600);
        for (std::size_t r = 0; r < study->recordings().size(); ++r) (void)study->clockTime(int(r), 10);
    });
    std::error_code ec;
    fs::remove_all(dir, ec);
}

void runMatrix(const std::uint8_t* data, std::size_t size, const std::string& stem) {
    // libhdf5 1.10.8 itself crashes or spins on some damaged files (tests/fuzz/library-findings):
    // CI's short runs leave .h5 out (WARPLAB_FUZZ_NO_HDF5), the release run keeps it.
    static const bool hdf5 = std::getenv("WARPLAB_FUZZ_NO_HDF5") == nullptr;
    for (const char* ext : {".npy", ".h5", ".csv"}) {
        if (!hdf5 && std::string(ext) == ".h5") continue;
        const std::string p = stem + "-matrix" + ext;
        writeScratch(p, data, size);
        expectClean([&] { (void)io::readMatrix(p); });
        if (std::string(ext) == ".npy") {
            expectClean([&] { (void)io::readSeriesFile(p); });
            expectClean([&] {
                const io::NpyLayout l = io::readNpyLayout(p);
                if (l.count > 0) (void)io::readNpyValues(p, l, l.count / 2, std::min<std::size_t>(l.count - l.count / 2, 4096));
            });
        }
        std::remove(p.c_str());
    }
}

void runEventsTsv(const std::uint8_t* data, std::size_t size, const std::string& stem) {
    expectClean([&] {
        const io::EventTable t = io::parseEventsTsv(view(data, size), "fuzz_events.tsv");
        // What the writer makes of the rows must read back as the same rows (times to the us).
        const io::EventTable back = io::parseEventsTsv(io::formatEventsTsv(t), "rewritten.tsv");
        if (back.rows.size() != t.rows.size() || io::seizureEvents(back).size() != io::seizureEvents(t).size()) std::abort();
    });
    const std::string p = stem + "_events.tsv";
    writeScratch(p, data, size);
    expectClean([&] { (void)io::readReferenceEvents(p, ""); });
    std::remove(p.c_str());
}

}  // namespace warplab::fuzz
