#include "widgets/common/table_view_utils.h"

#include "widgets/common/format.h"

#include <QAction>
#include <QClipboard>
#include <QEvent>
#include <QGuiApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QScopedValueRollback>
#include <QStringList>
#include <QTableView>
#include <QTableWidgetItem>

#include <algorithm>

namespace ks::widgets {

namespace {

    const QString kLastColumnFitName = QStringLiteral("ksLastColumnFit");

    // Keeps a table's last column filling the width, down to its content width.
    class LastColumnFit : public QObject
    {
    public:
        explicit LastColumnFit(QTableView* view)
            : QObject(view)
            , m_view(view)
        {
            setObjectName(kLastColumnFitName);
            view->horizontalHeader()->setStretchLastSection(false);
            view->viewport()->installEventFilter(this);
            // Another column resized by hand: the last one takes up the difference.
            connect(view->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int logical) {
                if (logical != lastColumn())
                    fit();
            });
        }

        void setContentWidth(int width)
        {
            m_contentWidth = width;
            fit();
        }

        bool eventFilter(QObject* watched, QEvent* event) override
        {
            if (event->type() == QEvent::Resize)
                fit();
            return QObject::eventFilter(watched, event);
        }

    private:
        int lastColumn() const
        {
            const QHeaderView* header = m_view->horizontalHeader();
            for (int visual = header->count() - 1; visual >= 0; --visual) {
                if (!header->isSectionHidden(header->logicalIndex(visual)))
                    return header->logicalIndex(visual);
            }
            return -1;
        }

        void fit()
        {
            QHeaderView* header = m_view->horizontalHeader();
            const int last = lastColumn();
            if (last < 0 || m_fitting)
                return;
            const QScopedValueRollback guard(m_fitting, true);
            int others = 0;
            for (int c = 0; c < header->count(); ++c) {
                if (c != last && !header->isSectionHidden(c))
                    others += header->sectionSize(c);
            }
            header->resizeSection(last, std::max(m_contentWidth, m_view->viewport()->width() - others));
        }

        QTableView* m_view;
        int m_contentWidth = 0;
        bool m_fitting = false;
    };

} // namespace

void fitColumnsToContents(QTableView* view)
{
    // Found by name: the class has no meta-object of its own for findChild to tell it apart.
    auto* fit = static_cast<LastColumnFit*>(
        view->findChild<QObject*>(kLastColumnFitName, Qt::FindDirectChildrenOnly));
    if (!fit)
        fit = new LastColumnFit(view);
    view->resizeColumnsToContents();
    const QHeaderView* header = view->horizontalHeader();
    for (int visual = header->count() - 1; visual >= 0; --visual) {
        if (!header->isSectionHidden(header->logicalIndex(visual))) {
            fit->setContentWidth(header->sectionSize(header->logicalIndex(visual)));
            return;
        }
    }
}

void setupTableView(QTableView* view)
{
    view->setSortingEnabled(true);
    view->setAlternatingRowColors(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    view->verticalHeader()->setVisible(false);
    // Rows as tall as the text, not the style's default (tables here can be long).
    const int rowHeight = view->fontMetrics().height() + 6;
    view->verticalHeader()->setDefaultSectionSize(rowHeight);
    view->verticalHeader()->setMinimumSectionSize(rowHeight);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    view->horizontalHeader()->setSortIndicatorShown(true);
}

QString selectedRowsAsTsv(const QAbstractItemView* view)
{
    const QAbstractItemModel* model = view->model();
    if (!model)
        return {};
    QList<int> rows;
    if (view->selectionModel()) {
        for (const QModelIndex& index : view->selectionModel()->selectedRows())
            rows.append(index.row());
    }
    if (rows.isEmpty()) {
        for (int row = 0; row < model->rowCount(); ++row)
            rows.append(row);
    }
    std::sort(rows.begin(), rows.end());
    const auto clean = [](QString text) {
        return text.replace(QChar(u'\t'), QChar(u' ')).replace(QChar(u'\n'), QChar(u' '));
    };
    // Raw names and values where the model keeps them (the number policy of
    // format.h): a copy pastes into a spreadsheet at full precision.
    const auto raw = [](const QVariant& rawValue, const QVariant& shown) {
        return rawValue.isValid() ? rawValue.toString() : shown.toString();
    };
    QStringList lines;
    QStringList cells;
    for (int column = 0; column < model->columnCount(); ++column)
        cells.append(clean(raw(model->headerData(column, Qt::Horizontal, kRawTextRole),
            model->headerData(column, Qt::Horizontal))));
    lines.append(cells.join(QChar(u'\t')));
    for (int row : rows) {
        cells.clear();
        for (int column = 0; column < model->columnCount(); ++column)
            cells.append(
                clean(raw(model->index(row, column).data(kRawTextRole), model->index(row, column).data())));
        lines.append(cells.join(QChar(u'\t')));
    }
    return lines.join(QChar(u'\n')) + QChar(u'\n');
}

void copySelectedRows(const QAbstractItemView* view)
{
    QGuiApplication::clipboard()->setText(selectedRowsAsTsv(view));
}

QTableWidgetItem* durationItem(std::int64_t ns)
{
    auto* item = new QTableWidgetItem(formatDuration(ns));
    const QString raw = QString::number(static_cast<double>(ns) / 1e6, 'f', 6);
    item->setData(kRawTextRole, raw);
    item->setToolTip(QObject::tr("%1 ms").arg(raw));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QTableWidgetItem* identifierItem(std::int64_t id)
{
    auto* item = new QTableWidgetItem(QString::number(id));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

void addCopyAction(QAbstractItemView* view)
{
    auto* copy = new QAction(QObject::tr("Copy Rows"), view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    QObject::connect(copy, &QAction::triggered, view, [view] { copySelectedRows(view); });
    view->addAction(copy);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace ks::widgets
