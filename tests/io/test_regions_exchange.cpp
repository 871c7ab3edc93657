// Regions out and in (io/regions_exchange.h): CSV and EDF+ annotation round trips on the
// bundled sample and the CHB-MIT file of tests/data, the sample's own annotations, and bad
// input named by file, line/field and reason.
#include <QtTest>
#undef signals  // Qt keyword macro; io::Recording::signals() is meant here

#include <edflib.h>

#include <cmath>

#include "io/recording.h"
#include "io/regions_exchange.h"
#include "io_test_util.h"

using namespace warplab::io;

namespace {

const std::string kSample = std::string(WARPLAB_SOURCE_DIR) + "/resources/sample/chb01_03_sample.edf";
const std::string kChb = std::string(WARPLAB_TEST_DATA) + "/chbmit/chb01_03_Seizure.edf";

std::vector<std::string> channelNames(const Recording& rec) {
    std::vector<std::string> out;
    for (const auto& s : rec.signals()) out.push_back(s.displayName);
    return out;
}

// Regions on a recording of `channels` channels, with notes that CSV must quote.
std::vector<Region> someRegions(std::size_t channels) {
    return {{RegionKind::Seizure, -1, 30.0, 40.0, "onset, \"clinical\"\nsecond line"},
            {RegionKind::Query, int(channels) - 1, 1.0 / 3.0, 2.718281828459045, "µV spike"},
            {RegionKind::Reference, 0, 10.25, 12.5, ""}};
}

}  // namespace

class TestRegionsExchange : public QObject {
    Q_OBJECT
private slots:
    void csvRoundTripIsExact() {
        for (const std::string& file : {kSample, kChb}) {
            auto rec = Recording::open(file);
            const auto names = channelNames(*rec);
            const auto regions = someRegions(names.size());
            QTemporaryDir dir;
            const std::string path = dir.filePath("regions.csv").toStdString();
            writeRegionsCsv(path, regions, names);
            const auto back = readRegionsCsv(path, names);
            QCOMPARE(back.size(), regions.size());
            for (std::size_t i = 0; i < regions.size(); ++i) {
                QVERIFY(back[i].kind == regions[i].kind);
                QCOMPARE(back[i].channel, regions[i].channel);
                QCOMPARE(back[i].startS, regions[i].startS);  // shortest round-trip text: exact
                QCOMPARE(back[i].endS, regions[i].endS);
                QCOMPARE(back[i].note, regions[i].note);
            }
            checkRegions(*rec, back);
        }
        // The sample's second T8-P8 is written by its unique name.
        auto rec = Recording::open(kSample);
        const auto names = channelNames(*rec);
        QCOMPARE(names.back(), std::string("T8-P8 (2)"));
        QTemporaryDir dir;
        const std::string path = dir.filePath("r.csv").toStdString();
        writeRegionsCsv(path, someRegions(names.size()), names);
        QVERIFY(iotest::readFile(path).find("query,T8-P8 (2),") != std::string::npos);
    }
    void csvByHandInAnyColumnOrder() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("hand.csv").toStdString();
        iotest::writeFile(path, "Start_S,End_S,Kind,Channel,extra\r\n3,4.5,SEIZURE,all,x\r\n\r\n5,6,query,FP1-F7,y\r\n");
        const auto r = readRegionsCsv(path, {"FP1-F7", "F7-T7"});
        QCOMPARE(r.size(), std::size_t(2));
        QCOMPARE(r[0].channel, -1);
        QCOMPARE(r[0].endS, 4.5);
        QVERIFY(r[1].kind == RegionKind::Query);
        QCOMPARE(r[1].channel, 0);
    }
    void csvBadInputIsNamed() {
        QTemporaryDir dir;
        const std::vector<std::string> ch = {"FP1-F7", "T8-P8", "T8-P8 (2)"};
        auto err = [&](const std::string& content) {
            const std::string path = dir.filePath("bad.csv").toStdString();
            iotest::writeFile(path, content);
            return iotest::errorOf([&] { readRegionsCsv(path, ch); });
        };
        const std::string h = "kind,channel,start_s,end_s,note\n";
        std::string e = err(h + "seizure,,1,2,ok\nseizure,,1,2\n");
        QVERIFY2(e.find("bad.csv: line 3: 4 fields where the header has 5") != std::string::npos, e.c_str());
        e = err(h + "seizure,Cz,1,2,\n");
        QVERIFY2(e.find("line 2, column 'channel': no channel 'Cz' in the recording (channels: FP1-F7, T8-P8, T8-P8 (2))") != std::string::npos, e.c_str());
        e = err(h + "seizure,,1,abc,\n");
        QVERIFY2(e.find("line 2, column 'end_s': 'abc' is not a number of seconds") != std::string::npos, e.c_str());
        e = err(h + "artifact,,1,2,\n");
        QVERIFY2(e.find("line 2, column 'kind': 'artifact' is not seizure, query or reference") != std::string::npos, e.c_str());
        e = err(h + "query,,5,5,\n");
        QVERIFY2(e.find("line 2: end 5 s is not after start 5 s") != std::string::npos, e.c_str());
        e = err("kind,channel,start,end\n");
        QVERIFY2(e.find("line 1: no column 'start_s'") != std::string::npos, e.c_str());
        e = err(h + "seizure,,1,2,\"open\n");
        QVERIFY2(e.find("line 2: a quoted field is not closed") != std::string::npos, e.c_str());
        e = err("");
        QVERIFY2(e.find("empty file") != std::string::npos, e.c_str());
        e = iotest::errorOf([&] { readRegionsCsv(dir.filePath("missing.csv").toStdString(), ch); });
        QVERIFY2(e.find("missing.csv: cannot open the file") != std::string::npos, e.c_str());
    }
    void edfRoundTrip() {
        for (const std::string& file : {kSample, kChb}) {
            auto rec = Recording::open(file);
            const auto names = channelNames(*rec);
            auto regions = someRegions(names.size());
            regions[0].note = "onset";  // fits EDFlib's 40 bytes with the kind
            regions[1].note = "a note far too long for EDFlib's forty bytes";
            QTemporaryDir dir;
            const std::string path = dir.filePath("x_regions.edf").toStdString();
            QCOMPARE(writeRegionsEdf(path, regions, names, annotationStartFromIso(rec->startIso())), 1);
            const ImportedRegions back = readRegionsEdf(path, names);
            QVERIFY(back.skipped.empty());
            QCOMPARE(back.regions.size(), regions.size());
            for (std::size_t i = 0; i < regions.size(); ++i) {
                QVERIFY(back.regions[i].kind == regions[i].kind);
                QCOMPARE(back.regions[i].channel, regions[i].channel);
                // 0.1 ms resolution: onset within half a unit, end within one.
                QVERIFY(std::fabs(back.regions[i].startS - regions[i].startS) <= 0.5e-4 + 1e-12);
                QVERIFY(std::fabs(back.regions[i].endS - regions[i].endS) <= 1e-4 + 1e-12);
            }
            QCOMPARE(back.regions[0].note, std::string("onset"));
            QCOMPARE(back.regions[2].note, std::string());
            const std::string cut = regionAnnotationText(regions[1], names).substr(0, 40);
            QVERIFY2(cut.find(back.regions[1].note) != std::string::npos, back.regions[1].note.c_str());
            QVERIFY(back.regions[1].note.size() < regions[1].note.size());
            // The annotation file starts when the recording does (header bytes 168-183).
            const std::string bytes = iotest::readFile(path);
            const auto s = annotationStartFromIso(rec->startIso());
            char want[17];
            std::snprintf(want, sizeof want, "%02d.%02d.%02d%02d.%02d.%02d", s.day, s.month, s.year % 100, s.hour, s.minute, s.second);
            QCOMPARE(bytes.substr(168, 16), std::string(want));
        }
    }
    void sampleAnnotationsImport() {
        // The bundled sample carries "seizure" 42 s + 40 s and two zero-length splice markers.
        std::vector<std::string> names;
        ImportedRegions fromRecording;
        {
            auto rec = Recording::open(kSample);
            names = channelNames(*rec);
            fromRecording = regionsFromAnnotations(rec->annotations(), names, kSample);
            // EDFlib opens a file once: reading it again while open is refused by name.
            const std::string e = iotest::errorOf([&] { readRegionsEdf(kSample, names); });
            QVERIFY2(e.find("already open as the recording") != std::string::npos, e.c_str());
        }
        const ImportedRegions r = readRegionsEdf(kSample, names);
        QCOMPARE(fromRecording.regions.size(), r.regions.size());
        QCOMPARE(fromRecording.skipped, r.skipped);
        QCOMPARE(r.regions.size(), std::size_t(1));
        QVERIFY(r.regions[0].kind == RegionKind::Seizure);
        QCOMPARE(r.regions[0].channel, -1);
        QCOMPARE(r.regions[0].startS, 42.0);
        QCOMPARE(r.regions[0].endS, 82.0);
        QCOMPARE(r.skipped.size(), std::size_t(2));
        QVERIFY2(r.skipped[0].find("not a seizure, query or reference region") != std::string::npos, r.skipped[0].c_str());
    }
    void edfBadInputIsNamed() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("foreign.edf").toStdString();
        {  // Annotations as another program would write them.
            const int h = edfopen_file_writeonly(path.c_str(), EDFLIB_FILETYPE_EDFPLUS, 0);
            QVERIFY(h >= 0);
            edfwrite_annotation_utf8(h, 10000, 20000, "Seizure [Cz]: from a colleague");
            edfwrite_annotation_utf8(h, 50000, -1, "eyes closed");
            QCOMPARE(edfclose_file(h), 0);
        }
        std::string e = iotest::errorOf([&] { readRegionsEdf(path, {"FP1-F7"}); });
        QVERIFY2(e.find("foreign.edf: annotation 1 at 1 s: no channel 'Cz' in the recording (channels: FP1-F7)") != std::string::npos, e.c_str());
        const ImportedRegions r = readRegionsEdf(path, {"FP1-F7", "Cz"});
        QCOMPARE(r.regions.size(), std::size_t(1));
        QCOMPARE(r.regions[0].channel, 1);
        QCOMPARE(r.regions[0].note, std::string("from a colleague"));
        QCOMPARE(r.skipped.size(), std::size_t(1));
        e = iotest::errorOf([&] { readRegionsEdf(kChb, {}); });  // CHB-MIT files are plain EDF
        QVERIFY2(e.find("chb01_03_Seizure.edf: header: plain EDF/BDF has no annotations") != std::string::npos, e.c_str());
        iotest::writeFile(dir.filePath("junk.edf").toStdString(), "not an edf file at all");
        e = iotest::errorOf([&] { readRegionsEdf(dir.filePath("junk.edf").toStdString(), {}); });
        QVERIFY2(e.find("junk.edf: EDFlib cannot read it") != std::string::npos, e.c_str());
        // Writing: a channel outside the list, and a name that EDFlib's 40 bytes would cut.
        e = iotest::errorOf([&] { writeRegionsEdf(dir.filePath("o.edf").toStdString(), {{RegionKind::Query, 5, 1, 2, ""}}, {"A"}, {}); });
        QVERIFY2(e.find("regions[0]: channel 5 outside the recording's 1 channels") != std::string::npos, e.c_str());
        e = iotest::errorOf([&] {
            writeRegionsEdf(dir.filePath("o.edf").toStdString(), {{RegionKind::Reference, 0, 1, 2, ""}}, {std::string(40, 'X')}, {});
        });
        QVERIFY2(e.find("export as CSV instead") != std::string::npos, e.c_str());
    }
    void otherFilesOfSharedData() {
        // eegmmidb (EDF+, 64 channels with task markers T0/T1/T2) and a BDF+ of BioSemi: the
        // round trip through both forms, and foreign annotations left out, not turned into regions.
        const std::string mmi = std::string(WARPLAB_TEST_DATA) + "/eegmmidb/S001R03.edf";
        const std::string bdf = std::string(WARPLAB_TEST_DATA) + "/bdf/Newtest17-256.bdf";
        for (const std::string& file : {mmi, bdf}) {
            std::vector<std::string> names;
            std::size_t annotations = 0;
            {
                auto rec = Recording::open(file);
                names = channelNames(*rec);
                annotations = rec->annotations().size();
                const std::vector<Region> regions = {{RegionKind::Query, int(names.size()) - 1, 0.5, 1.5, "q"},
                                                     {RegionKind::Seizure, -1, 2.0, 3.0, ""}};
                QTemporaryDir dir;
                const std::string csv = dir.filePath("r.csv").toStdString(), edf = dir.filePath("r.edf").toStdString();
                writeRegionsCsv(csv, regions, names);
                writeRegionsEdf(edf, regions, names, annotationStartFromIso(rec->startIso()));
                const auto a = readRegionsCsv(csv, names);
                const auto b = readRegionsEdf(edf, names).regions;
                QCOMPARE(a.size(), regions.size());
                QCOMPARE(b.size(), regions.size());
                for (std::size_t i = 0; i < regions.size(); ++i) {
                    QCOMPARE(a[i].channel, regions[i].channel);
                    QCOMPARE(b[i].channel, regions[i].channel);
                    QCOMPARE(a[i].startS, regions[i].startS);
                    QVERIFY(std::fabs(b[i].endS - regions[i].endS) <= 1e-4);
                }
                checkRegions(*rec, a);
            }
            if (file == mmi) {
                QVERIFY(annotations > 0);
                const ImportedRegions own = readRegionsEdf(file, names);
                QCOMPARE(own.regions.size(), std::size_t(0));
                QCOMPARE(own.skipped.size(), annotations);
                QVERIFY2(own.skipped[0].find("T0") != std::string::npos, own.skipped[0].c_str());
            }
        }
    }
    void defaultNamesBesideTheRecording() {
        QCOMPARE(regionsCsvPathFor("/data/chb01_03.edf"), std::string("/data/chb01_03_regions.csv"));
        QCOMPARE(regionsEdfPathFor("/data/chb01_03.edf"), std::string("/data/chb01_03_regions.edf"));
    }
};

QTEST_GUILESS_MAIN(TestRegionsExchange)
#include "test_regions_exchange.moc"
