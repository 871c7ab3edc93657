// Helpers shared by the CLI suites: run the real warplab-cli binary (WARPLAB_CLI) and read its
// stdout as CSV, and write small input files. Header-only so that each test_cli_*.cpp stays
// one self-contained CTest test.
#pragma once
#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

#include <charconv>
#include <string>
#include <vector>

#include "compute/core/series.h"

namespace cli_test {

struct CliRun {
    int exitCode = -1;
    bool crashed = false;
    QByteArray out, err;
};

inline CliRun runCli(const QStringList& args, int timeoutMs = 300000) {
    QProcess p;
    p.start(QStringLiteral(WARPLAB_CLI), args);
    CliRun r;
    if (!p.waitForStarted(30000)) {
        r.err = "could not start " WARPLAB_CLI;
        return r;
    }
    p.waitForFinished(timeoutMs);
    r.crashed = p.exitStatus() != QProcess::NormalExit;
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

inline QString dataPath(const QString& rel) { return QStringLiteral(WARPLAB_TEST_DATA "/") + rel; }

// Every line of CSV text as doubles (from_chars reads the round-trip text back bit-exact, and,
// unlike strtod, whatever locale QCoreApplication set).
// Lines that do not start with a number (a header) are skipped.
inline std::vector<std::vector<double>> parseCsv(const QByteArray& text) {
    std::vector<std::vector<double>> rows;
    for (const QByteArray& line : text.split('\n')) {
        QByteArray t = line.trimmed();
        if (t.isEmpty()) continue;
        std::vector<double> row;
        bool ok = true;
        for (const QByteArray& field : t.split(',')) {
            const std::string s = field.trimmed().toStdString();
            double v = 0;
            auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
            if (s.empty() || ec != std::errc() || end != s.data() + s.size()) { ok = false; break; }
            row.push_back(v);
        }
        if (ok) rows.push_back(std::move(row));
    }
    return rows;
}

inline bool writeText(const QString& path, const QByteArray& text) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
    return f.write(text) == text.size();
}

inline QByteArray readText(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll();
}

// The first `count` lines of a text file (UCR files hold one series per line).
inline QByteArray firstLines(const QString& path, int count) {
    QByteArray all = readText(path), out;
    const auto lines = all.split('\n');
    for (int i = 0; i < lines.size() && i < count; ++i) out += lines[i] + '\n';
    return out;
}

// A univariate series from values that are exact in float (so text and binary agree).
inline warplab::compute::Series series(std::vector<float> v) { return warplab::compute::Series(std::move(v)); }

}  // namespace cli_test
