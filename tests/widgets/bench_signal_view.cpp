// Benchmark (not a test): how long the signal view takes to show a window of a 23-channel,
// 256 Hz, one-hour EDF (generated once with EdfWriter), for windows of 10 s, 60 s and 5 min
// at random places, and for paging through with PgDn. Each redraw reads only the visible
// window of every channel, reduces it to min/max per pixel and replots.
//   warplab-bench-signal-view [PATH.edf] [REPEATS]
// Before any Qt header: edf_writer.h names a parameter `signals`, a Qt keyword macro.
#include "io/edf_writer.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

#include <QApplication>
#include <QFileInfo>
#include <QKeyEvent>
#include <qcustomplot.h>

#include "widgets/recording_access.h"
#include "widgets/signal_view.h"

using Clock = std::chrono::steady_clock;
using namespace warplab;

namespace {

double ms(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::milli>(b - a).count(); }

void writeHour(const QString& path) {
    const int channels = 23, rate = 256, seconds = 3600;
    io::EdfWriterHeader h;
    h.year = 2024;
    h.patientCode = "generated";
    h.recordingAdditional = "warplab-bench-signal-view";
    std::vector<io::EdfWriterSignal> sigs;
    for (int c = 0; c < channels; ++c)
        sigs.push_back({"EEG " + std::to_string(c + 1), "uV", "", "", -800, 800, -2048, 2047, rate});
    io::EdfWriter w(path.toStdString(), h, sigs);
    std::vector<int> rec(std::size_t(channels) * rate);
    std::uint32_t noise = 1;
    for (int r = 0; r < seconds; ++r) {
        for (int c = 0; c < channels; ++c)
            for (int k = 0; k < rate; ++k) {
                noise = noise * 1664525u + 1013904223u;
                const double t = r + double(k) / rate;
                rec[std::size_t(c) * rate + k] = int(300 * std::sin(2 * M_PI * (8 + c % 5) * t) + int(noise >> 25) - 64);
            }
        w.writeRecordDigital(rec.data());
    }
    w.close();
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const QString path = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("/tmp/warplab_bench_hour.edf");
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 20;
    if (!QFileInfo::exists(path)) {
        const auto t0 = Clock::now();
        writeHour(path);
        std::printf("wrote %s (23 ch x 256 Hz x 3600 s) in %.1f s\n", qPrintable(path), ms(t0, Clock::now()) / 1000);
    }
    auto t0 = Clock::now();
    std::shared_ptr<const io::Recording> rec = io::Recording::open(path.toStdString());
    widgets::SignalView view;
    view.resize(1200, 800);
    view.show();
    view.setRecording(rec);
    view.plot()->replot();
    std::printf("open + first window: %.1f ms (%zu channels, %.0f s)\n", ms(t0, Clock::now()), widgets::signalList(*rec).size(),
                rec->durationS());
    std::mt19937 rng(3);
    for (double window : {10.0, 60.0, 300.0}) {
        std::uniform_real_distribution<double> where(0, rec->durationS() - window);
        double total = 0, worst = 0;
        for (int i = 0; i < repeats; ++i) {
            t0 = Clock::now();
            view.setWindow(where(rng), window);
            view.plot()->replot();  // the queued replot, done now so that it is timed
            const double t = ms(t0, Clock::now());
            total += t;
            worst = std::max(worst, t);
        }
        std::printf("window %5.0f s: mean %.1f ms, worst %.1f ms per redraw (read + min/max + replot), %d points/channel\n",
                    window, total / repeats, worst, view.drawnPointCount(0));
    }
    view.setWindow(0, 10);
    t0 = Clock::now();
    for (int i = 0; i < repeats; ++i) {
        QKeyEvent key(QEvent::KeyPress, Qt::Key_PageDown, Qt::NoModifier);
        QApplication::sendEvent(&view, &key);
        view.plot()->replot();
    }
    std::printf("PgDn through 10 s windows: mean %.1f ms per page\n", ms(t0, Clock::now()) / repeats);
    return 0;
}
