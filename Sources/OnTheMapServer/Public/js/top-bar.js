// The app screen's top bar: Refresh, Post, Log out and the Show choice, and what the caller's
// account changes there (the Admin link, a notice when their pin is hidden or waits for approval).
import { appState } from './app-state.js';
import { bearerToken, mayOpenWindow } from './launch-session.js';
import { load, loggedOut } from './loader.js';
import { setUpLogOut } from './log-out.js';
import { setStatus } from './status-line.js';

const byId = (id) => document.getElementById(id);

/** Wires the bar's controls, and draws the caller's part of it now and whenever `me` changes. */
export function setUpTopBar() {
  byId('refresh-button').addEventListener('click', () => load({ keepView: true }));
  byId('post-button').addEventListener('click', () => { location.hash = '#/post'; });
  setUpLogOut({ account: () => appState.state.me && appState.state.me.account.key, loggedOut, setStatus });
  byId('pin-count').addEventListener('change', (event) => {
    appState.set({ pinCount: event.target.value });
    load();
  });
  setUpWindowButton();
  appState.subscribe(['me'], showCallerState);
  showCallerState(appState.state);
}

/**
 * In a learning platform's frame: Open in a new window. The form is filled as it is sent, with the
 * session and course of that moment (the server makes them the window's cookies).
 */
function setUpWindowButton() {
  const form = byId('launch-window-form');
  form.addEventListener('submit', (event) => {
    if (!mayOpenWindow()) {
      event.preventDefault();
      return;
    }
    form.elements.token.value = bearerToken();
    form.elements.course.value = appState.state.course || '';
    // Sent as the event ends: the token leaves the page's markup again.
    setTimeout(() => { form.elements.token.value = ''; }, 0);
  });
}

function showCallerState({ me }) {
  byId('launch-window-form').hidden = !(me && mayOpenWindow());
  byId('admin-link').hidden = !(me && me.account.isAdmin);
  byId('hidden-notice').hidden = !(me && me.locationHidden);
  byId('awaiting-notice').hidden = !(me && me.locationAwaitingApproval);
}
