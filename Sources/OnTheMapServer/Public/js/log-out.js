// Log out. A student with a post waiting on this device (outbox.js) is asked first what becomes of
// it: kept here, to be sent when they log in on this device again, or discarded. Kept, it is still
// theirs alone: no one else logging in here sees or sends it.
import { errorMessage, logOut } from './api.js';
import { isBusy, setBusy, showMessage } from './dom.js';
import { msg } from './i18n.js';
import { discardAll, waiting } from './outbox.js';

const byId = (id) => document.getElementById(id);

/**
 * Wires the Log out button and its question. `account()` is the logged-in account's key,
 * `loggedOut()` shows the login screen, `setStatus(message, {error})` says why logging out failed.
 */
export function setUpLogOut({ account, loggedOut, setStatus }) {
  const dialog = byId('logout-dialog');
  for (const choice of ['stay', 'discard', 'keep']) {
    byId(`logout-${choice}`).addEventListener('click', () => dialog.close(choice));
  }
  const button = byId('logout-button');
  button.addEventListener('click', async () => {
    if (isBusy(button)) return;
    setBusy(button, true);
    try {
      const key = account();
      const choice = await askAboutWaiting(key);
      if (choice === 'stay') {
        button.focus();
        return;
      }
      try {
        await logOut();
      } catch (failure) {
        // Still logged in: the waiting post stays theirs, whatever they chose.
        setStatus(msg('status.stillLoggedIn', { reason: errorMessage(failure) }), { error: true });
        return;
      }
      try {
        if (choice === 'discard') await discardAll(key);
      } finally {
        loggedOut();
      }
    } finally {
      setBusy(button, false);
    }
  });
}

/**
 * 'keep', 'discard' or 'stay' (Escape, or Stay logged in), asked in a modal dialog when the
 * account has a post waiting on this device; null, asking nothing, when it has none.
 */
async function askAboutWaiting(account) {
  let posts;
  try {
    posts = await waiting(account);
  } catch {
    return null;   // the device keeps nothing (storage refused): nothing to ask about
  }
  if (posts.length === 0) return null;
  const dialog = byId('logout-dialog');
  showMessage(byId('logout-text'), msg('logout.text', { place: posts[posts.length - 1].fields.mapString }));
  dialog.returnValue = '';
  dialog.showModal();
  byId('logout-keep').focus();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue || 'stay'), { once: true });
  });
}
