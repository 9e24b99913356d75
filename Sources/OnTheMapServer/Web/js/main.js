// The app shell: which screen shows (from the URL hash), the data behind the map and list, and
// the top bar's actions.
import { errorMessage, latestLocations, me, offlineCopySavedAt, trackOfflineCopies } from './api.js';
import { setUpAuthScreens, setUpResetScreen } from './auth-screens.js';
import { isBusy, setBusy, showMessage } from './dom.js';
import { chooseLanguage, msg, onLanguageChange, setKey, setLanguage, setText } from './i18n.js';
import { setUpLanguageSwitches } from './language-switch.js';
import { LiveView, summary } from './live-view.js';
import { setUpInstallOffer } from './install-app.js';
import { setUpLogOut } from './log-out.js';
import { mapCode } from './map-code.js';
import { renderPostList } from './post-list.js';
import { explainSignInFailure, showSignInProviders } from './sign-in-providers.js';
import { setUpTheme } from './theme.js';
import { clockTime } from './time.js';
import { WaitingPosts, withWaiting } from './waiting-posts.js';

const byId = (id) => document.getElementById(id);
const state = {
  me: null, latest: [], shown: [], pinCount: '100', pinMap: null, postFlow: null, loads: 0,
  liveState: null, syncedAt: null, offline: false, focusOnReturn: null, admin: null, waiting: [], loaded: false,
};
const screens = ['login-screen', 'signup-screen', 'app-screen', 'post-screen', 'admin-screen', 'reset-screen'];
const live = new LiveView(state, {
  setStatus: (text) => setStatus(text),
  statusIsTaken: () => byId('status').classList.contains('error') || isBusy(byId('refresh-button')),
  reload: () => load({ keepView: true, quiet: true }),
  // A post kept while the server was out of reach goes as soon as the stream says it is back.
  reached: () => waitingPosts.send(),
});

const waitingPosts = new WaitingPosts(state, {
  render: () => showPosts(),
  reload: () => load({ keepView: true, quiet: true }),
  setStatus: (message, options) => setStatus(message, options),
});

/**
 * Draws the list and the pins from what was loaded and what waits on this device; the view stays
 * where it is unless `keepView` is false.
 */
async function showPosts({ keepView = true } = {}) {
  showList();
  await showPins({ keepView });
}

/** The list: it needs no map, so its rows show while the basemap may still be on its way. */
function showList() {
  if (!state.me || !state.loaded) return;
  const { rows, mine } = withWaiting(state);
  renderPostList(byId('post-list'), byId('list-empty'), rows, mine);
  if (rows.length && !performance.getEntriesByName('list-rows').length) performance.mark('list-rows');
}

async function showPins({ keepView = true } = {}) {
  if (!state.me || !state.pinMapReady || !state.loaded) return;
  await pinMap();   // on a first visit, the map's code and basemap may still be on their way
  const { pins, mine } = withWaiting(state);
  await state.pinMap.show(pins, mine, { keepView });
}

/** The map, made once, the first time it is wanted (its code and basemap are fetched then). */
function pinMap() {
  state.pinMapReady ??= mapCode().then(async ({ PinMap }) => {
    state.pinMap = new PinMap(byId('map'));
    await state.pinMap.open();
    return state.pinMap;
  });
  state.pinMapReady.catch(() => { state.pinMapReady = null; });
  return state.pinMapReady;
}

/** The post flow, made once its code has arrived with the map's. */
async function postFlow() {
  const { PostFlow } = await mapCode();
  state.postFlow ??= new PostFlow(postFinished, loggedOut);
  return state.postFlow;
}

function showScreen(id) {
  byId('boot-loading').hidden = true;
  for (const screen of screens) byId(screen).hidden = screen !== id;
  // When each screen first shows: how a slow first visit is measured (bench_first_visit.py).
  if (!performance.getEntriesByName(`shown-${id}`).length) performance.mark(`shown-${id}`);
}

/**
 * The status line under the tabs; errors get a Retry button. `message` is a string or an i18n
 * Message, which the line says again after a change of language.
 */
function setStatus(message, { error = false, retry = null } = {}) {
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

/** Back to the login screen, saying why (a Message) when a session ran out. */
function loggedOut(reason = '') {
  state.me = null;
  state.loaded = false;
  live.stop();
  showMessage(byId('login-error'), reason);
  if (location.hash === '#/login') route();
  else location.replace('#/login');
}

/** Handles a failure of a data call: an ended session means logging in again. */
function failed(failure, retry) {
  if (failure.kind === 'session') loggedOut(errorMessage(failure));
  else setStatus(errorMessage(failure), { error: true, retry });
}

/**
 * Downloads the caller, the latest posts and the pins chosen; redraws the map and list. When a
 * newer load starts (Refresh pressed twice, Show changed) the older one's answer is dropped. A
 * `quiet` load (the live stream asked for it) keeps the status line and the Refresh button as
 * they are.
 */
async function load({ keepView = false, quiet = false } = {}) {
  const generation = ++state.loads;
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
    const [caller, latest, pins] = await Promise.all([
      me(), latestLocations(100), state.pinCount === '100' ? null : latestLocations(state.pinCount === 'all' ? 'all' : Number(state.pinCount)),
    ]);
    if (generation !== state.loads) return;
    state.me = caller;
    showCallerState();
    state.latest = latest;
    const mine = caller.location && caller.location.objectId;
    const shown = pins || [...latest];
    // Your own pin is always on the map, even when it is older than the posts shown.
    if (caller.location && !shown.some((item) => item.objectId === mine)) shown.push(caller.location);
    state.shown = shown;
    state.loaded = true;
    byId('list-loading').hidden = true;
    await waitingPosts.refresh();
    showList();
    await pinMap();
    if (generation !== state.loads) return;
    performance.mark('pins-data');
    await showPins({ keepView: keepView || quiet });
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    performance.mark('pins-ready');
    byId('map').dataset.pins = String(shown.length);
    byId('map').dataset.ready = 'true';
    const savedAt = offlineCopySavedAt();
    state.offline = Boolean(savedAt);
    if (savedAt) {
      setStatus(msg('status.offline', { when: () => clockTime(savedAt) }), { error: true, retry: () => load({ keepView: true }) });
    } else {
      state.syncedAt = new Date();
      if (!quiet || byId('status').classList.contains('error')) setStatus(summary(state));
      // The server answered: whatever waits on this device can go now.
      waitingPosts.send();
    }
  } catch (failure) {
    if (generation === state.loads) byId('list-loading').hidden = true;
    if (generation === state.loads && !quiet) failed(failure, () => load());
  } finally {
    if (generation === state.loads && !quiet) setBusy(button, false);
  }
}

/** What the caller's account changes on the page: the Admin link, and a notice when their pin is hidden. */
function showCallerState() {
  byId('admin-link').hidden = !(state.me && state.me.account.isAdmin);
  byId('hidden-notice').hidden = !(state.me && state.me.locationHidden);
}

/** Shows the screen the hash names, sending logged-out visitors to login. */
async function route() {
  const hash = location.hash || '#/map';
  const loggedIn = state.me !== null;
  showCallerState();
  // A reset link works whether or not someone is logged in on this browser.
  if (hash.startsWith('#/reset/')) { showScreen('reset-screen'); byId('reset-password').focus(); return; }
  if (loggedIn && hash.startsWith('#/admin')) { await openAdmin(hash.split('/')[2]); return; }
  if (!loggedIn && hash !== '#/login' && hash !== '#/signup') { location.replace('#/login'); return; }
  if (loggedIn && (hash === '#/login' || hash === '#/signup')) { location.replace('#/map'); return; }
  switch (hash) {
    case '#/login':
      showScreen('login-screen');
      byId('login-email').focus();
      // While the student types, the map's code arrives: the map then opens at once after login.
      setTimeout(() => mapCode().catch(() => {}), 0);
      break;
    case '#/signup': showScreen('signup-screen'); byId('signup-first').focus(); break;
    case '#/post': await openPostFlow(); break;
    case '#/list': showTab('list'); break;
    default: showTab('map');
  }
}

/**
 * Focus once the app screen shows: on what asked for it (`state.focusOnReturn`, the opener of a
 * screen that closed), else on the main content when focus was left on nothing (after login).
 */
function placeFocus() {
  const wanted = state.focusOnReturn;
  state.focusOnReturn = null;
  const active = document.activeElement;
  if (wanted) wanted.focus({ preventScroll: true });
  else if (!active || active === document.body || active.closest('[hidden]')) byId('main-content').focus({ preventScroll: true });
}

async function showTab(tab) {
  showScreen('app-screen');
  placeFocus();
  for (const name of ['map', 'list']) {
    byId(`tab-${name}`).setAttribute('aria-selected', String(name === tab));
    byId(`tab-${name}`).tabIndex = name === tab ? 0 : -1;
    byId(`${name}-panel`).hidden = name !== tab;
  }
  if (!state.pinMapReady) {
    // The list can fill while the map's code and basemap are still on their way.
    const posts = load();
    byId('map-loading').hidden = false;
    // A map that cannot be had (offline, its code never fetched) is said by load's status line.
    await pinMap().catch(() => {});
    byId('map-loading').hidden = true;
    await posts;
  }
  live.start();
  if (tab === 'map' && state.pinMap) state.pinMap.resize();
}

/** The admin area, for admins; anyone else goes back to the map. */
async function openAdmin(section) {
  if (!state.me.account.isAdmin) { location.replace('#/map'); return; }
  live.stop();
  const { AdminScreen } = await import('./admin-screen.js');
  state.admin ??= new AdminScreen(
    (failure) => (failure.kind === 'session' ? loggedOut(errorMessage(failure)) : location.replace('#/map')),
    () => state.me.account.key);
  showScreen('admin-screen');
  await state.admin.show(section);
  const tab = document.querySelector('#admin-screen [role="tab"][aria-selected="true"]');
  if (tab && !byId('admin-screen').contains(document.activeElement)) tab.focus();
}

async function openPostFlow() {
  const previous = byId('app-screen').hidden ? null : document.activeElement;
  const started = await (await postFlow()).start(state.me.location, state.me.account.key);
  if (!started) {
    location.replace('#/map');
    if (previous) previous.focus();
    return;
  }
  showScreen('post-screen');
  byId('post-location').focus();
}

/** After posting: back to the map, centred on the new pin with its popup open. */
async function postFinished(objectId, { waiting = null } = {}) {
  // Back on the button that opened the post flow (with the new pin's popup showing).
  state.focusOnReturn = byId('post-button');
  location.hash = '#/map';
  if (waiting) {
    // No network: the post waits on this device, shown as the student's pin, and goes when it can.
    await waitingPosts.refresh();
    await showPosts();
    setStatus(msg(navigator.onLine === false ? 'outbox.kept' : 'outbox.keptUnreachable'));
    state.pinMap.focus(withWaiting(state).mine);
    waitingPosts.send();
    return;
  }
  if (!objectId) return;
  await load({ keepView: true });
  state.pinMap.focus(objectId);
}

/** Arrow keys move between the Map and List tabs (the ARIA tabs pattern). */
function setUpTabs() {
  document.querySelector('.tabs').addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = location.hash === '#/list' ? 'map' : 'list';
    location.hash = `#/${next}`;
    byId(`tab-${next}`).focus();
  });
}

/** The skip link moves focus without touching the hash, which names the screen. */
function setUpSkipLink() {
  document.querySelector('.skip-link').addEventListener('click', (event) => {
    event.preventDefault();
    const target = byId('app-screen').hidden ? document.querySelector('main:not([hidden])') : byId('main-content');
    if (target) { target.tabIndex = -1; target.focus(); }
  });
}

function setUpTopBar() {
  byId('refresh-button').addEventListener('click', () => load({ keepView: true }));
  byId('post-button').addEventListener('click', () => { location.hash = '#/post'; });
  setUpLogOut({ account: () => state.me && state.me.account.key, loggedOut, setStatus });
  byId('pin-count').addEventListener('change', (event) => {
    state.pinCount = event.target.value;
    load();
  });
}

/**
 * After a change of language: what was built from data is built again in it. Messages given to
 * the status line and the forms' error lines, and the static page, follow by themselves (i18n.js).
 */
function relabel() {
  if (state.me && state.loaded) {
    const { rows, mine } = withWaiting(state);
    renderPostList(byId('post-list'), byId('list-empty'), rows, mine);
  }
  if (state.pinMap) state.pinMap.relabel();
  if (state.postFlow) state.postFlow.relabel();
  if (state.admin && !byId('admin-screen').hidden) state.admin.refresh();
}

async function start() {
  setUpTheme();
  setUpInstallOffer();
  // The reader's language before anything shows (every screen is hidden until `route`).
  await setLanguage(chooseLanguage());
  setUpLanguageSwitches();
  onLanguageChange(relabel);
  setUpAuthScreens(async () => {
    try {
      state.me = await me();
    } catch (failure) {
      showMessage(byId('login-error'), errorMessage(failure));
      return;
    }
    location.hash = '#/map';
    if (state.pinMapReady) await load();
  });
  setUpResetScreen(() => decodeURIComponent(location.hash.slice('#/reset/'.length)));
  setUpTopBar();
  setUpTabs();
  setUpSkipLink();
  window.addEventListener('hashchange', route);
  showSignInProviders();
  const explained = explainSignInFailure();
  try {
    state.me = await me();
  } catch (failure) {
    state.me = null;
    if (failure.kind !== 'session') showMessage(byId('login-error'), errorMessage(failure));
  }
  await explained;
  await route();
}

if ('serviceWorker' in navigator) {
  // Offline support is an extra: the app works the same without it (plain http off localhost).
  navigator.serviceWorker.register('/sw.js').catch(() => {});
}

start();
