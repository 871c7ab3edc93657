#include "widgets/plot_export.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QMessageBox>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <qcustomplot.h>

#include "widgets/atomic_file.h"

namespace warplab::widgets {
namespace {

constexpr int kTitleMargin = 6;

// Height of the title block for a plot `width` wide (0 without a title).
int titleHeight(const QString& title, const QFont& font, int width) {
    if (title.isEmpty()) return 0;
    const QRect r = QFontMetrics(font).boundingRect(QRect(0, 0, width - 2 * kTitleMargin, 1000), Qt::TextWordWrap, title);
    return r.height() + 2 * kTitleMargin;
}

// The title above, the plot below it, on any paint device.
bool paintWithTitle(QPaintDevice* device, QCustomPlot* plot, const QString& title, const QFont& font, int w, int h, int top) {
    QCPPainter painter;
    if (!painter.begin(device)) return false;
    if (top > 0) {
        painter.fillRect(QRect(0, 0, w, top), Qt::white);
        painter.setPen(Qt::black);
        painter.setFont(font);
        painter.drawText(QRect(kTitleMargin, kTitleMargin, w - 2 * kTitleMargin, top - kTitleMargin), Qt::TextWordWrap, title);
        painter.translate(0, top);
    }
    plot->toPainter(&painter, w, h);
    return painter.end();
}

}  // namespace

QString exportPlot(QCustomPlot* plot, const QString& path) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext != "png" && ext != "pdf" && ext != "svg")
        return QStringLiteral("%1: unknown plot format '%2' (use .png, .svg or .pdf)").arg(path, ext);
    const int w = plot->width(), h = plot->height();
    const QString title = plot->property(kExportTitleProperty).toString();
    QFont font = plot->font();
    font.setBold(true);
    const int top = titleHeight(title, font, w);
    // Drawn in memory, then written whole (atomic_file.h): a full disk keeps the previous plot.
    return writeFileAtomically(path, [&](QIODevice& out) {
        if (ext == "png") {
            QImage image(w, h + top, QImage::Format_ARGB32);
            image.fill(Qt::white);
            if (!paintWithTitle(&image, plot, title, font, w, h, top)) return false;
            if (!title.isEmpty()) image.setText("Title", title);
            return image.save(&out, "PNG");
        }
        if (ext == "pdf") {
            QPdfWriter pdf(&out);
            pdf.setResolution(72);  // one device unit per point: the plot's pixels as points
            pdf.setPageSize(QPageSize(QSizeF(w, h + top), QPageSize::Point));
            pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
            pdf.setTitle(title.isEmpty() ? QFileInfo(path).completeBaseName() : title);
            pdf.setCreator(QStringLiteral("WarpLab"));
            return paintWithTitle(&pdf, plot, title, font, w, h, top);
        }
        QSvgGenerator gen;
        gen.setOutputDevice(&out);
        gen.setSize(QSize(w, h + top));
        gen.setViewBox(QRect(0, 0, w, h + top));
        gen.setTitle(title.isEmpty() ? QFileInfo(path).completeBaseName() : title);
        gen.setDescription(title);
        return paintWithTitle(&gen, plot, title, font, w, h, top);
    });
}

void installPlotExportMenu(QCustomPlot* plot, const QString& baseName, std::function<QString(const QString&)> exportCsv) {
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(plot, &QWidget::customContextMenuRequested, plot, [plot, baseName, exportCsv](const QPoint& pos) {
        QMenu menu(plot);
        for (const char* ext : {"png", "svg", "pdf"}) {
            const QString e = QString::fromLatin1(ext);
            menu.addAction(QObject::tr("Export plot as %1…").arg(e.toUpper()), plot, [plot, baseName, e] {
                const QString path = QFileDialog::getSaveFileName(plot, QObject::tr("Export plot"),
                    baseName + "." + e, QObject::tr("%1 files (*.%2)").arg(e.toUpper(), e));
                if (path.isEmpty()) return;
                const QString err = exportPlot(plot, path);
                if (!err.isEmpty()) QMessageBox::warning(plot, QObject::tr("Export failed"), err);
            });
        }
        if (exportCsv)
            menu.addAction(QObject::tr("Export data as CSV…"), plot, [plot, baseName, exportCsv] {
                const QString path = QFileDialog::getSaveFileName(plot, QObject::tr("Export data"), baseName + ".csv",
                                                                  QObject::tr("CSV files (*.csv)"));
                if (path.isEmpty()) return;
                const QString err = exportCsv(path);
                if (!err.isEmpty()) QMessageBox::warning(plot, QObject::tr("Export failed"), err);
            });
        menu.exec(plot->mapToGlobal(pos));
    });
}

}  // namespace warplab::widgets
