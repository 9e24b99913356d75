// What may be clicked. Only http and https links are ever made clickable; everything else
// (javascript:, data:, a bare word) is shown as plain text.
import { msg } from './i18n.js';

/** The longest link the server keeps (Validation.maxMediaURLLength). */
const MAX_LINK_LENGTH = 2048;

/** The URL as a string when it is an absolute http(s) URL with a host, else null. */
export function safeHref(text) {
  if (typeof text !== 'string') return null;
  let url;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return null;
  return url.href;
}

/** The host to show for a link ("github.com"), or null when it is not clickable. */
export function linkHost(text) {
  const href = safeHref(text);
  return href ? new URL(href).hostname.replace(/^www\./, '') : null;
}

/**
 * Reads what a student typed as their link the way the server does: a bare "www.example.com"
 * means https. Returns {url} or {error} with a message for the form (an i18n Message).
 */
export function parseSharedLink(text) {
  const trimmed = (text || '').trim();
  if (!trimmed) return { error: msg('error.validation.linkMissing') };
  if (trimmed.length > MAX_LINK_LENGTH) return { error: msg('error.validation.linkTooLong', { max: MAX_LINK_LENGTH }) };
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^[^:/]+\.[^:/]+:\d/.test(trimmed);
  if (hasScheme && !/^https?:/i.test(trimmed)) {
    return { error: msg('error.validation.linkScheme') };
  }
  const candidate = hasScheme ? trimmed : `https://${trimmed}`;
  const href = safeHref(candidate);
  const host = href ? new URL(href).hostname : '';
  if (!href || /\s/.test(trimmed) || (!host.includes('.') && host !== 'localhost')) {
    return { error: msg('error.validation.link') };
  }
  return { url: hasScheme ? trimmed : candidate };
}
