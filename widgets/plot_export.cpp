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
    const int w = plot->width(), h = plot->height();
    const QString title = plot->property(kExportTitleProperty).toString();
    QFont font = plot->font();
    font.setBold(true);
    const int top = titleHeight(title, font, w);
    bool ok = false;
    if (ext == "png") {
        QImage image(w, h + top, QImage::Format_ARGB32);
        image.fill(Qt::white);
        ok = paintWithTitle(&image, plot, title, font, w, h, top);
        if (ok) {
            if (!title.isEmpty()) image.setText("Title", title);
            ok = image.save(path, "PNG");
        }
    } else if (ext == "pdf") {
        QPdfWriter pdf(path);
        pdf.setResolution(72);  // one device unit per point: the plot's pixels as points
        pdf.setPageSize(QPageSize(QSizeF(w, h + top), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(title.isEmpty() ? QFileInfo(path).completeBaseName() : title);
        pdf.setCreator(QStringLiteral("WarpLab"));
        ok = paintWithTitle(&pdf, plot, title, font, w, h, top);
    } else if (ext == "svg") {
        QSvgGenerator gen;
        gen.setFileName(path);
        gen.setSize(QSize(w, h + top));
        gen.setViewBox(QRect(0, 0, w, h + top));
        gen.setTitle(title.isEmpty() ? QFileInfo(path).completeBaseName() : title);
        gen.setDescription(title);
        ok = paintWithTitle(&gen, plot, title, font, w, h, top);
    } else {
        return QStringLiteral("%1: unknown plot format '%2' (use .png, .svg or .pdf)").arg(path, ext);
    }
    return ok ? QString() : QStringLiteral("%1: could not be written").arg(path);
}

void installPlotExportMenu(QCustomPlot* plot, const QString& baseName) {
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(plot, &QWidget::customContextMenuRequested, plot, [plot, baseName](const QPoint& pos) {
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
        menu.exec(plot->mapToGlobal(pos));
    });
}

}  // namespace warplab::widgets
