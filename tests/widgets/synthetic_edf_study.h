// The synthetic study of the detector's tests (tests/io/synthetic_study.h) written as EDF files
// with its seizures in a CHB-MIT style summary, for the main window to open. Channel "EEG" is
// the study's samples; with `channels` > 1, channel "EEG<k>" holds them scaled by 1 + k / 10,
// so that each channel's patterns find the same planted seizures.
#pragma once
// Before any Qt header: its constructor has a parameter named `signals` (a Qt macro).
#include "io/edf_writer.h"

#include <QFile>
#include <QString>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

#include "tests/io/synthetic_study.h"

namespace warplab::testing {

inline QString edfChannelName(int k) { return k == 0 ? QString("EEG") : QString("EEG%1").arg(k + 1); }

inline void writeEdfStudy(const QString& dir, const SyntheticStudy& s, int channels = 1) {
    QString t = "Data Sampling Rate: 256 Hz\n\nChannels in EDF Files:\n**********************\n";
    for (int c = 0; c < channels; ++c) t += QString("Channel %1: %2\n").arg(c + 1).arg(edfChannelName(c));
    t += "\n";
    for (std::size_t r = 0; r < s.samples.size(); ++r) {
        const auto& x = s.samples[r];
        const auto [lo, hi] = std::minmax_element(x.begin(), x.end());
        std::vector<io::EdfWriterSignal> sig;
        for (int c = 0; c < channels; ++c) {
            const double range = (std::max(std::abs(*lo), std::abs(*hi)) * 1.05 + 1) * (1 + c / 10.0);
            sig.push_back({edfChannelName(c).toStdString(), "uV", "", "", -range, range, -32768, 32767, 256});
        }
        io::EdfWriterHeader h;
        h.year = 2021, h.month = 5, h.day = 6, h.hour = 10, h.minute = int(r) * 5, h.second = 0;
        io::EdfWriter w((dir + "/" + QString::fromStdString(s.names[r])).toStdString(), h, sig);
        std::vector<double> rec(256 * std::size_t(channels));
        for (std::size_t k = 0; k + 256 <= x.size(); k += 256) {
            for (int c = 0; c < channels; ++c)
                for (int q = 0; q < 256; ++q) rec[std::size_t(c * 256 + q)] = x[k + std::size_t(q)] * (1 + c / 10.0);
            w.writeRecordPhysical(rec.data());
        }
        w.close();
        const int start = 10 * 3600 + int(r) * 300, end = start + int(x.size() / 256);
        auto hms = [](int v) { return QString::asprintf("%02d:%02d:%02d", v / 3600, v / 60 % 60, v % 60); };
        t += QString("File Name: %1\nFile Start Time: %2\nFile End Time: %3\n")
                 .arg(QString::fromStdString(s.names[r]), hms(start), hms(end));
        const auto& sz = s.request.segments[r].seizures;
        t += QString("Number of Seizures in File: %1\n").arg(sz.size());
        for (const auto& z : sz)
            t += QString("Seizure Start Time: %1 seconds\nSeizure End Time: %2 seconds\n").arg(z.start).arg(z.end);
        t += "\n";
    }
    QFile out(dir + "/syn-summary.txt");
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(t.toUtf8());
}

}  // namespace warplab::testing
