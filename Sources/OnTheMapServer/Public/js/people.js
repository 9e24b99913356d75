// How a post is described wherever it appears: the student's name and their link, made
// clickable only when it is http(s).
import { el } from './dom.js';
import { t } from './i18n.js';
import { safeHref } from './links.js';

// Chinese, Japanese and Korean names are written family name first, Chinese and Japanese ones
// without a space (王小明, 山田太郎), whatever the page's language; other names given name first.
const FAMILY_FIRST = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const HANGUL = /\p{Script=Hangul}/u;

/** "First Last" (or family name first for a CJK name), or a stand-in when a legacy client posted no name. */
export function displayName(location) {
  const first = (location.firstName || '').trim();
  const last = (location.lastName || '').trim();
  if (!first && !last) return t('people.someone');
  // One name alone needs no order.
  if (!first || !last) return first || last;
  if (FAMILY_FIRST.test(first + last)) return HANGUL.test(first + last) ? `${last} ${first}` : `${last}${first}`;
  return `${first} ${last}`;
}

/** The name of a post's author, marked "(you)" when it is the reader's own. */
export function authorName(location, isMine) {
  return isMine ? t('people.you', { name: displayName(location) }) : displayName(location);
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
  const name = el('span', { class: 'popup-name' }, authorName(location, isMine));
  if (href) {
    return el('a', { class: 'popup-link', ...newTabLink(href) }, name, el('span', { class: 'popup-url' }, location.mediaURL));
  }
  return el('div', { class: 'popup-link' }, name,
    el('span', { class: 'popup-url unsafe' }, location.mediaURL || t('people.noLink')),
    location.mediaURL ? el('span', { class: 'popup-note' }, t('people.unsafeLink')) : null);
}
