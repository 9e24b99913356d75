// The posts behind the map and the list: the session check at start, the first load and every
// reload, and what keeps them current between loads (the live stream, the posts waiting on this
// device). Leaving the session is here too, as a failed load may end it.
import { errorMessage, latestLocations, mayBeLoggedIn, me, offlineCopySavedAt, trackOfflineCopies } from './api.js';
import { appState, loadedFields } from './app-state.js';
import { setBusy, showMessage } from './dom.js';
import { msg } from './i18n.js';
import { LiveView } from './live-view.js';
import { mapWanted, openPinMap, showList, showPins, showPosts } from './post-views.js';
import { setStatus, summary } from './status-line.js';
import { clockTime } from './time.js';
import { WaitingPosts } from './waiting-posts.js';

const byId = (id) => document.getElementById(id);

// Counts loads: when a newer one starts (Refresh pressed twice, Show changed), an older one's
// answer is dropped.
let loads = 0;

const quietly = () => load({ keepView: true, quiet: true });

export const live = new LiveView({
  reload: quietly,
  // A post kept while the server was out of reach goes as soon as the stream says it is back.
  reached: () => waitingPosts.send(),
});

export const waitingPosts = new WaitingPosts({ render: () => showPosts(), reload: quietly });

// The answer of the session check at start, used by the first load instead of asking again (the
// page preloaded it: asking again would be a round trip more before the first rows). Only the
// first load uses it; a login or logout drops it.
let sessionAnswer = null;

/**
 * At start: who is logged in on this browser, if anyone (an ended session is no error). Without
 * the session's cookies nobody is: the server is not asked (a round trip before the login form).
 */
export async function checkSession() {
  if (!mayBeLoggedIn()) {
    appState.set({ me: null });
    return;
  }
  try {
    sessionAnswer = await me();
    appState.set({ me: sessionAnswer });
  } catch (failure) {
    appState.set({ me: null });
    if (failure.kind !== 'session') showMessage(byId('login-error'), errorMessage(failure));
  }
}

/** After the login or sign-up form: the caller's profile, then the map. */
export async function loggedIn() {
  sessionAnswer = null;
  try {
    appState.set({ me: await me() });
  } catch (failure) {
    showMessage(byId('login-error'), errorMessage(failure));
    return;
  }
  location.hash = '#/map';
  if (mapWanted()) await load();
}

/**
 * Back to the login screen, saying why (a Message) when a session ran out. The router, subscribed
 * to `me`, shows the login screen.
 */
export function loggedOut(reason = '') {
  sessionAnswer = null;
  live.stop();
  showMessage(byId('login-error'), reason);
  appState.set({ me: null, loaded: false });
}

/** Handles a failure of a data call: an ended session means logging in again. */
function failed(failure, retry) {
  if (failure.kind === 'session') loggedOut(errorMessage(failure));
  else setStatus(errorMessage(failure), { error: true, retry });
}

/**
 * The posts, the first time the app screen shows after login (the list can fill while the map's
 * code and basemap are still on their way), then kept current by the live stream.
 */
export async function openPosts() {
  if (!mapWanted()) {
    const posts = load();
    byId('map-loading').hidden = false;
    // A map that cannot be had (offline, its code never fetched) is said by load's status line.
    await openPinMap().catch(() => {});
    byId('map-loading').hidden = true;
    await posts;
  }
  live.start();
}

/**
 * Downloads the caller, the latest posts and the pins chosen; redraws the map and list. A `quiet`
 * load (the live stream asked for it) keeps the status line and the Refresh button as they are.
 */
export async function load({ keepView = false, quiet = false } = {}) {
  const generation = ++loads;
  const button = byId('refresh-button');
  if (!quiet) {
    setBusy(button, true);
    setStatus(msg('status.loading'));
    byId('map').dataset.ready = 'false';
    // An empty list says it is loading rather than showing nothing.
    byId('list-loading').hidden = byId('post-list').children.length > 0;
    if (!byId('list-loading').hidden) {
      byId('list-empty').hidden = true;
      performance.mark('list-loading');
    }
  }
  try {
    trackOfflineCopies();
    performance.mark('pins-requested');
    const { pinCount } = appState.state;
    const caller = sessionAnswer ?? me();
    sessionAnswer = null;
    const [callerAnswer, latest, pins] = await Promise.all([
      caller, latestLocations(100), pinCount === '100' ? null : latestLocations(pinCount === 'all' ? 'all' : Number(pinCount)),
    ]);
    if (generation !== loads) return;
    const fields = loadedFields(callerAnswer, latest, pins);
    appState.set(fields);
    byId('list-loading').hidden = true;
    await waitingPosts.refresh();
    showList();
    await openPinMap();
    if (generation !== loads) return;
    performance.mark('pins-data');
    await showPins({ keepView: keepView || quiet });
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    performance.mark('pins-ready');
    byId('map').dataset.pins = String(fields.shown.length);
    byId('map').dataset.ready = 'true';
    const savedAt = offlineCopySavedAt();
    appState.set({ offline: Boolean(savedAt) });
    if (savedAt) {
      setStatus(msg('status.offline', { when: () => clockTime(savedAt) }), { error: true, retry: () => load({ keepView: true }) });
    } else {
      appState.set({ syncedAt: new Date() });
      if (!quiet || byId('status').classList.contains('error')) setStatus(summary(appState.state));
      // The server answered: whatever waits on this device can go now.
      waitingPosts.send();
    }
  } catch (failure) {
    if (generation === loads) byId('list-loading').hidden = true;
    if (generation === loads && !quiet) failed(failure, () => load());
  } finally {
    if (generation === loads && !quiet) setBusy(button, false);
  }
}
