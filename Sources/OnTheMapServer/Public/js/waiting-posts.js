// Posts waiting on this device to be sent (outbox.js), shown where the student's own post will
// be: first in the list and as their pin, marked "Waiting to send", with a Cancel button. Their
// current pin, which the waiting post will replace, steps aside meanwhile.
import { errorMessage } from './api.js';
import { appState } from './app-state.js';
import { el } from './dom.js';
import { msg, t } from './i18n.js';
import { cancel, courseOf, isSending, onOutboxChange, sendWaiting, waiting as waitingOf } from './outbox.js';
import { setStatus } from './status-line.js';

// While a post waits, sending is tried again this often (and at once when the browser says it is
// back online, or the page is looked at again).
const RETRY_MS = 30_000;

const PREFIX = 'waiting-';

/** The id a waiting post goes by on the page (never a server's objectId). */
export const waitingId = (entry) => `${PREFIX}${entry.key}`;

/** The outbox key of a waiting post's page id, or null for a real post. */
export const keyOf = (objectId) => (String(objectId).startsWith(PREFIX) ? objectId.slice(PREFIX.length) : null);

/** A waiting post as the list and the map show a post. */
function asLocation(entry, account) {
  const when = new Date(entry.createdAt).toISOString();
  return {
    ...entry.fields,
    objectId: waitingId(entry),
    firstName: account.firstName,
    lastName: account.lastName,
    createdAt: when,
    updatedAt: when,
    waiting: { key: entry.key, sending: isSending(entry.key) },
  };
}

/**
 * What the list and the map show, the waiting posts included: `rows` for the list (newest first),
 * `pins` for the map, and `mine`, the id of the student's own (the newest waiting post's, if any).
 */
export function withWaiting({ me, latest, shown, waiting }) {
  const own = me.location && me.location.objectId;
  if (!waiting || waiting.length === 0) return { rows: latest, pins: shown, mine: own };
  const posts = waiting.map((entry) => asLocation(entry, me.account)).reverse();
  const notOwn = (post) => post.objectId !== own;
  return { rows: [...posts, ...latest.filter(notOwn)], pins: [...shown.filter(notOwn), ...posts], mine: posts[0].objectId };
}

/** "Waiting to send" (or "Sending…") and a Cancel button, for a waiting post's row or popup. */
export function waitingNote(location) {
  const { key, sending } = location.waiting;
  return el('span', { class: 'waiting-note' },
    el('span', { class: 'badge warn' }, t(sending ? 'outbox.sending' : 'outbox.waiting')),
    el('button', { type: 'button', class: 'waiting-cancel', 'data-cancel-waiting': key, disabled: sending },
      t('outbox.cancel')));
}

/** The logged-in account's key, or null. */
const loggedInAccount = () => appState.state.me && appState.state.me.account.key;

/**
 * Keeps the state's `waiting` (the logged-in student's waiting posts) current, shows it through
 * `render()`, and sends the posts when it can: at once, when the browser is back online, when the
 * page is looked at again, and every half minute while any waits. `reload()` after one was sent;
 * the status line says what became of it.
 */
export class WaitingPosts {
  constructor({ render, reload }) {
    this.hooks = { render, reload };
    // How many of the student's posts wait, for every course (the state's `waiting` holds the
    // shown course's): one kept for another course is sent too.
    this.count = 0;
    onOutboxChange(() => this.refresh().then(() => this.hooks.render()));
    window.addEventListener('online', () => this.send());
    document.addEventListener('visibilitychange', () => { if (!document.hidden) this.send(); });
    setInterval(() => { if (this.count > 0) this.send(); }, RETRY_MS);
    // Cancel, in a waiting post's row or popup.
    document.addEventListener('click', (event) => {
      const button = event.target.closest('[data-cancel-waiting]');
      if (!button) return;
      event.preventDefault();
      cancel(button.dataset.cancelWaiting).then((cancelled) => {
        if (cancelled) setStatus(msg('outbox.cancelled'));
      });
    });
  }

  /**
   * Reads the waiting posts of whoever is logged in (none when no one is, or storage is refused);
   * the state keeps those for the course shown.
   */
  async refresh() {
    const account = loggedInAccount();
    let posts;
    try {
      posts = account ? await waitingOf(account) : [];
    } catch {
      posts = [];
    }
    this.count = posts.length;
    const shown = posts.filter((entry) => courseOf(entry) === appState.state.course);
    appState.set({ waiting: shown });
    return shown;
  }

  /** Sends what waits, if anything does and someone is logged in. */
  async send() {
    const account = loggedInAccount();
    if (!account || this.count === 0) return;
    await sendWaiting(account, {
      onSent: () => {
        setStatus(msg('outbox.sent'));
        this.hooks.reload();
      },
      onRefused: (entry, failure) => {
        setStatus(msg('outbox.refused', { place: entry.fields.mapString, reason: errorMessage(failure) }), { error: true });
      },
      // Someone else logged in on this browser (in another tab): the page becomes theirs, and the
      // posts wait, on this device, for the student who wrote them.
      onOtherAccount: () => this.hooks.reload(),
    });
  }
}
