// How a post is described wherever it appears: the student's name and their link, made
// clickable only when it is http(s).
import { el } from './dom.js';
import { safeHref } from './links.js';

/** "First Last", or a stand-in when a legacy client posted no name. */
export function displayName(location) {
  const name = `${location.firstName || ''} ${location.lastName || ''}`.trim();
  return name || 'Someone';
}

/** Attributes that open `href` in a new tab without giving that tab a handle on this one. */
export function newTabLink(href) {
  return { href, target: '_blank', rel: 'noopener noreferrer' };
}

/**
 * The popup of a pin: name and link. The whole popup is one link, so a tap anywhere in it opens
 * the page; a link that is not http(s) is shown as text and cannot be opened.
 */
export function popupContent(location, isMine) {
  const href = safeHref(location.mediaURL);
  const name = el('span', { class: 'popup-name' }, displayName(location), isMine ? ' (you)' : null);
  if (href) {
    return el('a', { class: 'popup-link', ...newTabLink(href) }, name, el('span', { class: 'popup-url' }, location.mediaURL));
  }
  return el('div', { class: 'popup-link' }, name,
    el('span', { class: 'popup-url unsafe' }, location.mediaURL || 'No link'),
    location.mediaURL ? el('span', { class: 'popup-note' }, 'This link can’t be opened: only web links are.') : null);
}
