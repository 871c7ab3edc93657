#include "app/gui/copy_as_script.h"

#include <cmath>

#include <QApplication>
#include <QClipboard>
#include <QMessageBox>

#include "app/gui/action_table.h"
#include "app/gui/document.h"
#include "widgets/recording_access.h"

namespace warplab::app {

namespace {

// What Align reads: the last query and reference regions, samples [floor(start * rate),
// floor(end * rate)) of their channels (Document::segment).
struct Side {
    std::string channel;
    long long first = 0, last = 0;
};
struct Pair {
    QString recording;
    Side x, y;
};

const io::Region* lastOfKind(const std::vector<io::Region>& regions, io::RegionKind kind) {
    for (auto it = regions.rbegin(); it != regions.rend(); ++it)
        if (it->kind == kind) return &*it;
    return nullptr;
}

QString pairFor(const Document& doc, int currentChannel, Pair& out) {
    const auto rec = doc.recording();
    if (!rec) return QObject::tr("no recording is open");
    if (!doc.montage().empty())
        return QObject::tr("a montage is set: the script reads the channels as recorded");
    if (doc.filters().applyToAnalysis && doc.filters().enabled())
        return QObject::tr("filters apply to the analysis: the script reads the unfiltered samples");
    const io::Region* q = lastOfKind(doc.regions(), io::RegionKind::Query);
    const io::Region* r = lastOfKind(doc.regions(), io::RegionKind::Reference);
    if (!q || !r) return QObject::tr("mark a query region and a reference region first");
    const auto& sigs = widgets::signalList(*rec);
    auto side = [&](const io::Region& region, Side& s) -> QString {
        const int c = region.channel >= 0 ? region.channel : std::max(0, currentChannel);
        if (c >= int(sigs.size())) return QObject::tr("no channel #%1").arg(c);
        const auto& sig = sigs[std::size_t(c)];
        s.channel = sig.displayName;
        s.first = std::max(0LL, (long long)std::floor(region.startS * sig.rateHz));
        s.last = std::min(sig.samples, (long long)std::floor(region.endS * sig.rateHz));
        return s.last > s.first ? QString() : QObject::tr("a region holds no samples");
    };
    QString why = side(*q, out.x);
    if (why.isEmpty()) why = side(*r, out.y);
    out.recording = QString::fromStdString(rec->path());
    return why;
}

// A Python string literal.
QString py(const QString& s) {
    QString out = s;
    out.replace('\\', "\\\\").replace('"', "\\\"");
    return '"' + out + '"';
}

// A shell word.
QString sh(const QString& s) {
    static const QString plain = QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=+,");
    bool quote = s.isEmpty();
    for (QChar c : s) quote = quote || !plain.contains(c);
    if (!quote) return s;
    QString out = s;
    out.replace('\'', "'\\''");
    return '\'' + out + '\'';
}

QString number(double v) { return QString::number(v, 'g', 17); }

}  // namespace

Script alignmentAsPython(const Document& doc, const compute::Params& p, int currentChannel) {
    Pair pair;
    if (QString why = pairFor(doc, currentChannel, pair); !why.isEmpty()) return {{}, why};
    QString args = QStringLiteral("metric=%1").arg(py(QString::fromLatin1(compute::metricName(p.metric).data())));
    if (p.metric == compute::Metric::Cdtw) args += QStringLiteral(", band=%1").arg(p.band);
    if (p.metric == compute::Metric::SoftDtw) args += QStringLiteral(", gamma=%1").arg(number(p.gamma));
    if (p.metric == compute::Metric::Twed) args += QStringLiteral(", nu=%1, lam=%2").arg(number(p.nu), number(p.lambda));
    args += QStringLiteral(", cost=%1").arg(py(QString::fromLatin1(compute::costName(p.cost).data())));
    if (p.znorm) args += QStringLiteral(", znorm=True");
    if (p.sqrt) args += QStringLiteral(", sqrt=True");
    QString text;
    text += QStringLiteral("import warplab\n\n");
    text += QStringLiteral("rec = warplab.open_recording(%1)\n").arg(py(pair.recording));
    text += QStringLiteral("x = rec.read(%1, %2, %3)  # the query\n").arg(py(QString::fromStdString(pair.x.channel))).arg(pair.x.first).arg(pair.x.last);
    text += QStringLiteral("y = rec.read(%1, %2, %3)  # the reference\n").arg(py(QString::fromStdString(pair.y.channel))).arg(pair.y.first).arg(pair.y.last);
    text += QStringLiteral("cost, path = warplab.align(x, y, %1)\n").arg(args);
    text += QStringLiteral("print(repr(cost))\n");
    return {text, {}};
}

Script alignmentAsCommand(const Document& doc, const compute::Params& p, int currentChannel, const QString& cli) {
    Pair pair;
    if (QString why = pairFor(doc, currentChannel, pair); !why.isEmpty()) return {{}, why};
    // `warplab-cli align` cuts both files with one --channel and one --window (START:LEN s,
    // rounded to the nearest sample): only a pair of equal channel and window is one command.
    if (pair.x.channel != pair.y.channel || pair.x.first != pair.y.first || pair.x.last != pair.y.last)
        return {{}, QObject::tr("warplab-cli align takes one --channel and --window for both series; the query "
                                "and the reference differ (use Copy as Python)")};
    const auto rec = doc.recording();
    double rate = 0;
    for (const auto& sig : widgets::signalList(*rec))
        if (sig.displayName == pair.x.channel) rate = sig.rateHz;
    QStringList words{cli, "align", sh(pair.recording), sh(pair.recording), "--channel", sh(QString::fromStdString(pair.x.channel)),
                      "--window", number(double(pair.x.first) / rate) + ':' + number(double(pair.x.last - pair.x.first) / rate),
                      "--metric", QString::fromLatin1(compute::metricName(p.metric).data())};
    if (p.metric == compute::Metric::Cdtw) words << "--band" << QString::number(p.band);
    if (p.metric == compute::Metric::SoftDtw) words << "--gamma" << number(p.gamma);
    if (p.metric == compute::Metric::Twed) words << "--nu" << number(p.nu) << "--lambda" << number(p.lambda);
    words << "--cost" << QString::fromLatin1(compute::costName(p.cost).data());
    if (p.znorm) words << "--znorm";
    if (p.sqrt) words << "--sqrt";
    return {words.join(' ') + '\n', {}};
}

void addCopyAsScriptActions(ActionTable& actions, const QString& menu, QWidget* parent, const Document* doc,
                            std::function<compute::Params()> params, std::function<int()> currentChannel) {
    auto copy = [=](bool python) {
        const Script s = python ? alignmentAsPython(*doc, params(), currentChannel())
                                : alignmentAsCommand(*doc, params(), currentChannel());
        if (!s.why.isEmpty()) {
            QMessageBox::information(parent, python ? QObject::tr("Copy as Python") : QObject::tr("Copy as command"),
                                     QObject::tr("Nothing to copy: %1.").arg(s.why));
            return;
        }
        QApplication::clipboard()->setText(s.text);
    };
    actions.add({"edit.copyPython", menu, QObject::tr("Copy alignment as &Python"), {}, [=] { copy(true); }, false, {}, {}, {}});
    actions.add({"edit.copyCommand", menu, QObject::tr("Copy alignment as co&mmand"), {}, [=] { copy(false); }, false, {}, {}, {}});
}

}  // namespace warplab::app
