#include "widgets/plot_export.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace warplab::widgets {

QString exportPlot(QCustomPlot* plot, const QString& path) {
    const QString ext = QFileInfo(path).suffix().toLower();
    const int w = plot->width(), h = plot->height();
    bool ok = false;
    if (ext == "png") {
        ok = plot->savePng(path, w, h);
    } else if (ext == "pdf") {
        ok = plot->savePdf(path, w, h);
    } else if (ext == "svg") {
        // QCustomPlot has no SVG writer; it can paint onto any QPaintDevice.
        QSvgGenerator gen;
        gen.setFileName(path);
        gen.setSize(QSize(w, h));
        gen.setViewBox(QRect(0, 0, w, h));
        gen.setTitle(QFileInfo(path).completeBaseName());
        QCPPainter painter;
        ok = painter.begin(&gen);
        if (ok) {
            plot->toPainter(&painter, w, h);
            ok = painter.end();
        }
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
