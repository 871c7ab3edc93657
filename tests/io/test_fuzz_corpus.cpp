// Replays the fuzz regression inputs (tests/io/corpus/<target>/) and the fuzz seeds through
// the code the libFuzzer targets run, in the ordinary build: each input must be read or
// refused with an IoError, never crash or throw anything else.
#include <QtTest>
#undef signals

#include <filesystem>

#include "fuzz_inputs.h"
#include "io_test_util.h"

namespace fs = std::filesystem;

class TestFuzzCorpus : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    void replay(const fs::path& folder, void (*run)(const std::uint8_t*, std::size_t, const std::string&)) {
        QVERIFY2(fs::is_directory(folder), folder.c_str());
        int n = 0;
        for (const auto& e : fs::directory_iterator(folder)) {
            if (!e.is_regular_file() || e.path().extension() == ".md") continue;
            const std::string bytes = iotest::readFile(e.path().string());
            const std::string scratch = dir_.filePath(QString::fromStdString(e.path().filename().string())).toStdString();
            try {
                run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), scratch);
            } catch (const std::exception& ex) {
                QFAIL(qPrintable(QString("%1: escaped exception: %2").arg(e.path().c_str()).arg(ex.what())));
            }
            ++n;
        }
        qInfo("%s: %d inputs", folder.c_str(), n);
    }

    static void header(const std::uint8_t* d, std::size_t n, const std::string&) { warplab::fuzz::runEdfHeader(d, n); }
    static void file(const std::uint8_t* d, std::size_t n, const std::string& s) { warplab::fuzz::runEdfFile(d, n, s); }
    static void text(const std::uint8_t* d, std::size_t n, const std::string& s) { warplab::fuzz::runTextReaders(d, n, s); }
    static void session(const std::uint8_t* d, std::size_t n, const std::string& s) { warplab::fuzz::runSession(d, n, s); }
    static void regions(const std::uint8_t* d, std::size_t n, const std::string& s) { warplab::fuzz::runRegions(d, n, s); }
    static void study(const std::uint8_t* d, std::size_t n, const std::string& s) { warplab::fuzz::runStudy(d, n, s); }
    static void matrix(const std::uint8_t* d, std::size_t n, const std::string& s) { warplab::fuzz::runMatrix(d, n, s); }
    static void events(const std::uint8_t* d, std::size_t n, const std::string& s) { warplab::fuzz::runEventsTsv(d, n, s); }

private slots:
    void edfHeaderInputs() {
        replay(WARPLAB_IO_CORPUS "/fuzz_edf_header", header);
        replay(WARPLAB_SOURCE_DIR "/tests/fuzz/seeds/edf", header);
    }
    void edfFileInputs() {
        replay(WARPLAB_IO_CORPUS "/fuzz_edf_header", file);
        replay(WARPLAB_IO_CORPUS "/fuzz_edf_file", file);
        replay(WARPLAB_SOURCE_DIR "/tests/fuzz/seeds/edf", file);
    }
    void textInputs() {
        replay(WARPLAB_IO_CORPUS "/fuzz_text_readers", text);
        replay(WARPLAB_SOURCE_DIR "/tests/fuzz/seeds/text", text);
    }
    void sessionInputs() {
        replay(WARPLAB_IO_CORPUS "/fuzz_text_readers", session);
        replay(WARPLAB_SOURCE_DIR "/tests/fuzz/seeds/session", session);
    }
    void regionInputs() {
        replay(WARPLAB_SOURCE_DIR "/tests/fuzz/seeds/regions", regions);
        replay(WARPLAB_IO_CORPUS "/fuzz_edf_file", regions);
    }
    void studyInputs() {
        replay(WARPLAB_IO_CORPUS "/fuzz_study", study);
        replay(WARPLAB_SOURCE_DIR "/tests/fuzz/seeds/study", study);
    }
    void matrixInputs() {
        replay(WARPLAB_IO_CORPUS "/fuzz_matrix", matrix);
        replay(WARPLAB_SOURCE_DIR "/tests/fuzz/seeds/matrix", matrix);
        replay(WARPLAB_IO_CORPUS "/fuzz_text_readers", matrix);
    }
    void eventsInputs() {
        replay(WARPLAB_SOURCE_DIR "/tests/fuzz/seeds/events", events);
        replay(WARPLAB_SOURCE_DIR "/tests/fuzz/seeds/text", events);
    }
};

QTEST_GUILESS_MAIN(TestFuzzCorpus)
#include "test_fuzz_corpus.moc"
