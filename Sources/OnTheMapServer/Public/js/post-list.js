// The List tab: the latest posts, newest first. A row is one link to the student's page when
// that page is http(s); otherwise the row is plain text.
import { el } from './dom.js';
import { t } from './i18n.js';
import { linkHost, safeHref } from './links.js';
import { authorName, newTabLink } from './people.js';
import { timeAgo } from './time.js';
import { waitingNote } from './waiting-posts.js';

/**
 * Renders `locations` (already newest first) into `listNode`; shows `emptyNode` when none. Rows
 * whose objectId is in `fresh` (just arrived live) are marked as new.
 */
export function renderPostList(listNode, emptyNode, locations, myObjectId, { now = Date.now(), fresh = new Set() } = {}) {
  const rows = locations.map((location) => {
    const href = safeHref(location.mediaURL);
    const host = linkHost(location.mediaURL);
    const isMine = location.objectId === myObjectId;
    const when = location.updatedAt || location.createdAt;
    const isFresh = fresh.has(location.objectId);
    const content = [
      el('span', { class: 'row-name' }, authorName(location, isMine), isFresh ? el('span', { class: 'row-new' }, t('list.new')) : null),
      location.waiting ? waitingNote(location) : el('time', { class: 'row-when', datetime: when }, timeAgo(when, now)),
      el('span', { class: 'row-where' }, location.mapString || ''),
      el('span', { class: href ? 'row-host' : 'row-host unsafe' }, host || t(location.mediaURL ? 'list.linkUnsafe' : 'people.noLink')),
    ];
    // A waiting post's row holds its Cancel button, which a link may not contain.
    const body = href && !location.waiting ? el('a', newTabLink(href), content) : el('div', {}, content);
    const classes = ['post-row', isMine ? 'mine' : null, isFresh ? 'fresh' : null, location.waiting ? 'waiting' : null]
      .filter(Boolean).join(' ');
    return el('li', { class: classes, 'data-object-id': location.objectId }, body);
  });
  listNode.replaceChildren(...rows);
  emptyNode.hidden = locations.length > 0;
}
