// The status line under the tabs, the page's one polite live region: what is loading, what
// failed (with a Retry button), and otherwise how many posts show and how current they are.
import { isBusy } from './dom.js';
import { lazy, msg, setKey, setText, t } from './i18n.js';
import { clockTime } from './time.js';

const byId = (id) => document.getElementById(id);

/**
 * Says `message`, a string or an i18n Message, which the line says again after a change of
 * language; an error gets a Retry button when `retry` is given.
 */
export function setStatus(message, { error = false, retry = null } = {}) {
  const status = byId('status');
  status.classList.toggle('error', error);
  if (!retry) {
    setText(status, message || '');
    return;
  }
  const text = document.createElement('span');
  setText(text, message || '');
  const button = document.createElement('button');
  button.type = 'button';
  setKey(button, 'status.retry');
  button.addEventListener('click', retry);
  setText(status, '');
  status.append(text, button);
}

/** True while the line says something else than the summary: an error, or a load under way. */
export function statusIsTaken() {
  return byId('status').classList.contains('error') || isBusy(byId('refresh-button'));
}

/**
 * The summary of `state`: how many posts, and how current they are. A Message, put into words
 * when shown (and again after a change of language), of the state when it was made.
 */
export function summary(state, { arrived = 0 } = {}) {
  const count = state.shown.length;
  if (count === 0) return msg('status.noPosts');
  const { liveState } = state;
  const syncedAt = state.syncedAt || new Date();
  return lazy(() => {
    const parts = [t('status.showing', { count })];
    if (liveState === 'live') {
      parts.push(t('status.live'));
      if (arrived > 0) parts.push(t('status.arrived', { count: arrived }));
    } else {
      parts.push(t('status.updated', { when: clockTime(syncedAt) }));
      if (liveState === 'reconnecting') parts.push(t('status.reconnecting'));
    }
    return parts.join(' · ');
  });
}
