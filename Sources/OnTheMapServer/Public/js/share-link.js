// Sharing a pin's link: the system's share sheet where the browser has one (phones, installed
// apps), else the clipboard, saying which happened.
import { el } from './dom.js';
import { t } from './i18n.js';
import { safeHref } from './links.js';
import { displayName } from './people.js';

/** A "Share link" button for a pin whose link can be opened; null for one that cannot. */
export function shareControl(location) {
  const href = safeHref(location.mediaURL);
  if (!href) return null;
  const status = el('span', { class: 'popup-note', role: 'status' });
  const button = el('button', { type: 'button', class: 'popup-share' }, t('share.button'));
  button.addEventListener('click', async () => {
    status.textContent = '';
    if (navigator.share) {
      try {
        const text = t('share.text', { name: displayName(location), place: location.mapString ?? '' });
        await navigator.share({ title: displayName(location), text, url: href });
        return;
      } catch (error) {
        // Closing the sheet is the student's choice; any other failure falls back to copying.
        if (error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(href);
      status.textContent = t('share.copied');
    } catch {
      status.textContent = t('share.copyFrom', { link: href });
    }
  });
  return el('div', { class: 'popup-actions' }, button, status);
}
