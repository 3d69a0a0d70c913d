#pragma once

// One insights finding as a card: its rank by gain, a gain bar, the evidence,
// the suggestion, and links that show its events on the timeline, zoom to
// them, or open the analysis that proves it.

#include "core/insights/finding.h"

#include <QFrame>

namespace ks::widgets {

class FindingCard : public QFrame
{
    Q_OBJECT

public:
    // `timelineLinks`: the traces are loaded, so the card links to their events and the analysis views
    // (job mode has neither).
    FindingCard(const core::Finding& finding, int position, bool timelineLinks, QWidget* parent = nullptr);

    // The navigator view whose numbers prove a rule's finding, as the rule
    // declares it (RuleInfo::proofView); empty when none.
    static QString proofViewOf(const std::string& rule);

signals:
    void eventRequested(qint64 rank, qint64 eventIndex);
    void rangeRequested(qint64 startNs, qint64 endNs);
    void analysisRequested(const QString& viewId);

private:
    void onLink(const QString& link);

    core::Finding m_finding;
};

} // namespace ks::widgets
