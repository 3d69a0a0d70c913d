#include "widgets/common/view_navigator.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStyle>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace ks::widgets {

namespace {

    constexpr int kIdRole = Qt::UserRole + 1;

    // The scroll area's widget: the view filling it, sized down to the view's least
    // size and no further. Not a layout: a layout with a word-wrapped label reports
    // height-for-width, and QScrollArea then keeps the view at its preferred height
    // (the Rank Summary scrolled at any screen size).
    class ViewHolder : public QWidget
    {
    public:
        using QWidget::QWidget;

        QWidget* view() const
        {
            const auto children = findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly);
            return children.isEmpty() ? nullptr : children.front();
        }

        QSize minimumSizeHint() const override
        {
            const QWidget* shown = view();
            if (!shown)
                return {};
            // As a layout sees it: an explicit minimum wins over the hint, per direction.
            const QSize hint = shown->minimumSizeHint();
            const int least = shown->minimumWidth() > 0 ? shown->minimumWidth() : hint.width();
            int height = shown->minimumHeight() > 0 ? shown->minimumHeight() : hint.height();
            // A wrapped label takes more lines at this width than its own hint says.
            if (const QLayout* layout = shown->layout();
                layout && layout->hasHeightForWidth() && shown->minimumHeight() == 0)
                height = std::max(height, layout->minimumHeightForWidth(std::max(width(), least)));
            return { least, height };
        }

        QSize sizeHint() const override { return view() ? view()->sizeHint() : QSize(); }

    protected:
        void resizeEvent(QResizeEvent* event) override
        {
            QWidget::resizeEvent(event);
            if (QWidget* shown = view())
                shown->setGeometry(rect());
            if (event->size().width() != event->oldSize().width())
                updateGeometry(); // the least height of wrapped text depends on the width
        }

        bool event(QEvent* event) override
        {
            // The view's least size changed (a chart laid out): the scroll area asks again.
            if (event->type() == QEvent::LayoutRequest)
                updateGeometry();
            return QWidget::event(event);
        }
    };

} // namespace

ViewNavigator::ViewNavigator(QWidget* parent)
    : QWidget(parent)
    , m_list(new QTreeWidget(this))
    , m_pages(new QStackedWidget(this))
    , m_title(new QLabel(this))
    , m_tearOff(new QToolButton(this))
{
    m_list->setObjectName(QStringLiteral("viewNavigatorList"));
    m_list->setHeaderHidden(true);
    m_list->setIndentation(12);
    m_list->setUniformRowHeights(true);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setTextElideMode(Qt::ElideNone);
    m_list->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
    m_title->setObjectName(QStringLiteral("viewNavigatorTitle"));
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_tearOff->setObjectName(QStringLiteral("viewNavigatorTearOff"));
    m_tearOff->setIcon(style()->standardIcon(QStyle::SP_TitleBarNormalButton));
    m_tearOff->setText(tr("Open in Own Window"));
    m_tearOff->setToolTip(tr("Show this view in a window of its own, beside the others"));
    m_tearOff->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_tearOff->setAutoRaise(true);

    auto* header = new QHBoxLayout;
    header->setContentsMargins(6, 2, 2, 2);
    header->addWidget(m_title, 1);
    header->addWidget(m_tearOff);
    auto* content = new QVBoxLayout;
    content->setContentsMargins(0, 0, 0, 0);
    content->setSpacing(0);
    content->addLayout(header);
    content->addWidget(m_pages, 1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_list);
    layout->addLayout(content, 1);

    connect(m_list, &QTreeWidget::currentItemChanged, this,
        [this](QTreeWidgetItem* item) { onItemActivated(item); });
    connect(
        m_list, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { onItemActivated(item); });
    connect(m_tearOff, &QToolButton::clicked, this, [this] {
        if (!m_current.isEmpty() && !isTornOff(m_current))
            emit tearOffRequested(m_current);
    });
}

int ViewNavigator::addGroup(const QString& title)
{
    auto* item = new QTreeWidgetItem(m_list, { title });
    item->setFlags(Qt::ItemIsEnabled);
    QFont font = item->font(0);
    font.setBold(true);
    item->setFont(0, font);
    item->setHidden(true); // until it has a view
    m_groups.append(item);
    fitListWidth();
    return static_cast<int>(m_groups.size() - 1);
}

QStringList ViewNavigator::groupTitles() const
{
    QStringList titles;
    for (const QTreeWidgetItem* item : m_groups)
        titles.append(item->text(0));
    return titles;
}

void ViewNavigator::addView(const QString& id, const QString& title, int group, QWidget* view)
{
    Q_ASSERT(group >= 0 && group < m_groups.size() && !m_entries.contains(id));
    Entry entry;
    entry.title = title;
    entry.group = group;
    entry.view = view;
    entry.page = new QWidget(m_pages);
    auto* layout = new QVBoxLayout(entry.page);
    layout->setContentsMargins(0, 0, 0, 0);
    // A view shorter than its least readable height (a chart's plot rect, AnalysisChart)
    // scrolls rather than being squashed: the user chose how tall the dock is.
    entry.scroll = new QScrollArea(entry.page);
    entry.scroll->setObjectName(id + QStringLiteral("Scroll"));
    entry.scroll->setFrameShape(QFrame::NoFrame);
    entry.scroll->setWidgetResizable(true);
    entry.holder = new ViewHolder;
    view->setParent(entry.holder);
    entry.scroll->setWidget(entry.holder);
    layout->addWidget(entry.scroll);
    // Shown in place of a view that lives in its own window.
    entry.away = new QWidget(entry.page);
    auto* awayLayout = new QVBoxLayout(entry.away);
    auto* line = new QLabel(tr("%1 is shown in its own window.").arg(title), entry.away);
    auto* back = new QPushButton(tr("Bring It Back Here"), entry.away);
    awayLayout->addStretch();
    awayLayout->addWidget(line, 0, Qt::AlignHCenter);
    awayLayout->addWidget(back, 0, Qt::AlignHCenter);
    awayLayout->addStretch();
    entry.away->hide();
    layout->addWidget(entry.away);
    connect(back, &QPushButton::clicked, this, [this, id] { emit returnRequested(id); });
    m_pages->addWidget(entry.page);

    QTreeWidgetItem* groupItem = m_groups[group];
    entry.item = new QTreeWidgetItem(groupItem, { title });
    entry.item->setData(0, kIdRole, id);
    entry.item->setToolTip(0, title);
    groupItem->setHidden(false);
    m_entries.insert(id, entry);
    m_order.append(id);
    fitListWidth();
    if (m_current.isEmpty())
        showView(id);
}

QString ViewNavigator::title(const QString& id) const
{
    const auto it = m_entries.find(id);
    return it == m_entries.end() ? QString() : it->title;
}

int ViewNavigator::groupOf(const QString& id) const
{
    const auto it = m_entries.find(id);
    return it == m_entries.end() ? -1 : it->group;
}

QWidget* ViewNavigator::view(const QString& id) const
{
    const auto it = m_entries.find(id);
    return it == m_entries.end() ? nullptr : it->view;
}

QScrollArea* ViewNavigator::scrollArea(const QString& id) const
{
    const auto it = m_entries.find(id);
    return it == m_entries.end() ? nullptr : it->scroll;
}

bool ViewNavigator::showView(const QString& id)
{
    const auto it = m_entries.find(id);
    if (it == m_entries.end())
        return false;
    const bool changed = m_current != id;
    if (changed && !m_current.isEmpty())
        m_previous = m_current;
    m_current = id;
    // One group open at a time: eight group rows and the open group's views fit
    // the height a laptop screen leaves below the timeline.
    for (int group = 0; group < m_groups.size(); ++group)
        m_groups[group]->setExpanded(group == it->group);
    m_lastInGroup.insert(it->group, id);
    m_pages->setCurrentWidget(it->page);
    m_title->setText(it->title);
    m_tearOff->setEnabled(!isTornOff(id));
    if (m_list->currentItem() != it->item)
        m_list->setCurrentItem(it->item);
    if (isTornOff(id))
        emit tornOffViewActivated(id);
    if (changed)
        emit currentViewChanged(id);
    return true;
}

bool ViewNavigator::showGroup(int group)
{
    if (group < 0 || group >= m_groups.size() || m_groups[group]->childCount() == 0)
        return false;
    const QString last = m_lastInGroup.value(group);
    return showView(last.isEmpty() ? m_groups[group]->child(0)->data(0, kIdRole).toString() : last);
}

bool ViewNavigator::showPreviousView()
{
    return !m_previous.isEmpty() && showView(m_previous);
}

QWidget* ViewNavigator::takeView(const QString& id)
{
    const auto it = m_entries.find(id);
    if (it == m_entries.end() || isTornOff(id))
        return nullptr;
    it->view->setParent(nullptr);
    it->holder->updateGeometry();
    it->scroll->hide();
    it->away->show();
    if (m_current == id)
        m_tearOff->setEnabled(false);
    return it->view;
}

void ViewNavigator::returnView(const QString& id)
{
    const auto it = m_entries.find(id);
    if (it == m_entries.end() || !isTornOff(id))
        return;
    it->away->hide();
    it->view->setParent(it->holder);
    it->view->setGeometry(it->holder->rect());
    it->holder->updateGeometry();
    it->scroll->show();
    it->view->show();
    if (m_current == id)
        m_tearOff->setEnabled(true);
}

bool ViewNavigator::isTornOff(const QString& id) const
{
    const auto it = m_entries.find(id);
    return it != m_entries.end() && it->view->parentWidget() != it->holder;
}

void ViewNavigator::onItemActivated(QTreeWidgetItem* item)
{
    if (!item)
        return;
    const QString id = item->data(0, kIdRole).toString();
    if (!id.isEmpty())
        showView(id);
    else if (const qsizetype group = m_groups.indexOf(item); group >= 0)
        showGroup(static_cast<int>(group));
}

void ViewNavigator::fitListWidth()
{
    // Wide enough for its longest entry, so no title is ever elided.
    int widest = 0;
    for (const QTreeWidgetItem* group : m_groups) {
        widest = std::max(
            widest, m_list->indentation() + QFontMetrics(group->font(0)).horizontalAdvance(group->text(0)));
        for (int i = 0; i < group->childCount(); ++i)
            widest = std::max(widest,
                2 * m_list->indentation()
                    + QFontMetrics(group->child(i)->font(0)).horizontalAdvance(group->child(i)->text(0)));
    }
    const int chrome =
        2 * m_list->frameWidth() + 12 + m_list->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    m_list->setFixedWidth(widest + chrome);
}

} // namespace ks::widgets
