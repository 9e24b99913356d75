// Reported pins as a moderator sees them, in the admin area (every course) and on a course's page
// (its own): each pin, why it was reported, and the actions the screen gives (hide or show it
// again, dismiss the reports, and in the admin area delete it).
import { el } from './dom.js';
import { formatList, msg, t } from './i18n.js';
import { displayName } from './people.js';

// The server's report reasons (ReportReason), with their words.
const reasonKeys = {
  spam: 'admin.reason.spam', offensive: 'admin.reason.offensive', 'personal-information': 'admin.reason.personalInformation',
  'wrong-place': 'admin.reason.wrongPlace', other: 'admin.reason.other',
};

/** A server word put into the page's (one the page does not know yet stays as sent). */
export const wordFor = (keys, value) => (keys[value] ? t(keys[value]) : value);

/** Who posted a pin, where, its link, and whether it is hidden or waits for approval. */
export function pinSummary(pin) {
  return el('div', { class: 'admin-pin' },
    el('strong', {}, displayName(pin)), ` · ${pin.mapString}`,
    pinBadge(pin),
    el('span', { class: 'admin-meta' }, pin.mediaURL));
}

/** "waiting for approval", "hidden", or nothing for a pin on the map. */
export function pinBadge(pin) {
  if (pin.awaitingApproval) return el('span', { class: 'badge warn' }, t('admin.badge.awaiting'));
  return pin.hidden ? el('span', { class: 'badge warn' }, t('admin.badge.hidden')) : null;
}

/**
 * Hide (or show again) `pin`, through `setHidden(objectId, hidden)`; `action(label, work, options)`
 * makes the screen's button. A pin that waits for approval gets Approve (shown) and Decline
 * (it stays hidden) instead.
 */
export function hideOrShow(pin, setHidden, action) {
  const name = displayName(pin);
  if (pin.awaitingApproval) {
    return [
      action('admin.approve', () => setHidden(pin.objectId, false), { done: msg('admin.approved', { name }), primary: true }),
      action('admin.decline', () => setHidden(pin.objectId, true), { done: msg('admin.declined', { name }) }),
    ];
  }
  return pin.hidden
    ? action('admin.showAgain', () => setHidden(pin.objectId, false), { done: msg('admin.shownAgain', { name }) })
    : action('admin.hide', () => setHidden(pin.objectId, true), { done: msg('admin.hidden', { name }) });
}

/**
 * The list of `reported` pins (`GET …/reports`), each with `pinActions(pin)` and a Dismiss button
 * that calls `dismiss(objectId)`; or a line saying there are none.
 */
export function reportedPins(reported, { pinActions, dismiss, action }) {
  if (reported.length === 0) return [el('p', { class: 'empty-state' }, t('admin.noReports'))];
  return [el('ul', { class: 'admin-list', 'aria-label': t('admin.reportedPins') }, reported.map((item) => {
    const reasons = formatList(item.reports.map((report) => wordFor(reasonKeys, report.reason)));
    return el('li', { class: 'admin-item', 'data-object-id': item.objectId },
      item.location ? pinSummary(item.location) : el('div', { class: 'admin-pin' }, t('admin.pinDeleted')),
      el('p', { class: 'admin-meta' }, t('admin.reportCount', { count: item.reports.length, reasons })),
      el('div', { class: 'admin-actions' },
        item.location ? pinActions(item.location) : null,
        action('admin.dismiss', () => dismiss(item.objectId), { done: msg('admin.dismissed') })));
  }))];
}
