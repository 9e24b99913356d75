// The app shell: which screen shows (from the URL hash), the data behind the map and list, and
// the top bar's actions.
import { latestLocations, logOut, me } from './api.js';
import { setUpAuthScreens } from './auth-screens.js';
import { setBusy, showMessage } from './dom.js';
import { PinMap } from './pin-map.js';
import { PostFlow } from './post-flow.js';
import { renderPostList } from './post-list.js';

const byId = (id) => document.getElementById(id);
const state = { me: null, latest: [], pinCount: '100', pinMap: null, loading: null };
const screens = ['login-screen', 'signup-screen', 'app-screen', 'post-screen'];

function showScreen(id) {
  for (const screen of screens) byId(screen).hidden = screen !== id;
}

/** The status line under the tabs; errors get a Retry button. */
function setStatus(message, { error = false, retry = null } = {}) {
  const status = byId('status');
  status.classList.toggle('error', error);
  status.replaceChildren(message || '');
  if (retry) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Retry';
    button.addEventListener('click', retry);
    status.append(button);
  }
}

/** Back to the login screen, saying why when a session ran out. */
function loggedOut(reason = '') {
  state.me = null;
  showMessage(byId('login-error'), reason);
  if (location.hash === '#/login') route();
  else location.replace('#/login');
}

/** Handles a failure of a data call: an ended session means logging in again. */
function failed(failure, retry) {
  if (failure.kind === 'session') loggedOut(failure.message);
  else setStatus(failure.message, { error: true, retry });
}

/** Downloads the caller, the latest posts and the pins chosen; redraws the map and list. */
async function load({ keepView = false } = {}) {
  const button = byId('refresh-button');
  setBusy(button, true);
  setStatus('Loading the latest posts…');
  byId('map').dataset.ready = 'false';
  try {
    performance.mark('pins-requested');
    const [caller, latest, pins] = await Promise.all([
      me(), latestLocations(100), state.pinCount === '100' ? null : latestLocations(state.pinCount === 'all' ? 'all' : Number(state.pinCount)),
    ]);
    performance.mark('pins-data');
    state.me = caller;
    state.latest = latest;
    const mine = caller.location && caller.location.objectId;
    const shown = pins || latest;
    // Your own pin is always on the map, even when it is older than the posts shown.
    if (caller.location && !shown.some((item) => item.objectId === mine)) shown.push(caller.location);
    renderPostList(byId('post-list'), byId('list-empty'), latest, mine);
    await state.pinMap.show(shown, mine, { keepView });
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    performance.mark('pins-ready');
    byId('map').dataset.pins = String(shown.length);
    byId('map').dataset.ready = 'true';
    setStatus(shown.length === 0 ? 'No posts yet. Be the first: choose “Post my location”.'
      : `Showing ${shown.length.toLocaleString('en')} post${shown.length === 1 ? '' : 's'} · updated ${new Date().toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`);
  } catch (failure) {
    failed(failure, () => load());
  } finally {
    setBusy(button, false);
  }
}

/** Shows the screen the hash names, sending logged-out visitors to login. */
async function route() {
  const hash = location.hash || '#/map';
  const loggedIn = state.me !== null;
  if (!loggedIn && hash !== '#/login' && hash !== '#/signup') { location.replace('#/login'); return; }
  if (loggedIn && (hash === '#/login' || hash === '#/signup')) { location.replace('#/map'); return; }
  switch (hash) {
    case '#/login': showScreen('login-screen'); byId('login-email').focus(); break;
    case '#/signup': showScreen('signup-screen'); byId('signup-first').focus(); break;
    case '#/post': await openPostFlow(); break;
    case '#/list': showTab('list'); break;
    default: showTab('map');
  }
}

async function showTab(tab) {
  showScreen('app-screen');
  for (const name of ['map', 'list']) {
    byId(`tab-${name}`).setAttribute('aria-selected', String(name === tab));
    byId(`tab-${name}`).tabIndex = name === tab ? 0 : -1;
    byId(`${name}-panel`).hidden = name !== tab;
  }
  if (!state.pinMap) {
    state.pinMap = new PinMap(byId('map'));
    await state.pinMap.open();
    await load();
  }
  if (tab === 'map') state.pinMap.resize();
}

async function openPostFlow() {
  const previous = byId('app-screen').hidden ? null : document.activeElement;
  const started = await state.postFlow.start(state.me.location);
  if (!started) {
    location.replace('#/map');
    if (previous) previous.focus();
    return;
  }
  showScreen('post-screen');
  byId('post-location').focus();
}

/** After posting: back to the map, centred on the new pin with its popup open. */
async function postFinished(objectId) {
  location.hash = '#/map';
  if (!objectId) { byId('post-button').focus(); return; }
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

function setUpTopBar() {
  byId('refresh-button').addEventListener('click', () => load({ keepView: true }));
  byId('post-button').addEventListener('click', () => { location.hash = '#/post'; });
  byId('logout-button').addEventListener('click', async () => {
    const button = byId('logout-button');
    setBusy(button, true);
    try {
      await logOut();
      loggedOut();
    } catch (failure) {
      setStatus(`You are still logged in: ${failure.message}`, { error: true });
    } finally {
      setBusy(button, false);
    }
  });
  byId('pin-count').addEventListener('change', (event) => {
    state.pinCount = event.target.value;
    load();
  });
}

async function start() {
  state.postFlow = new PostFlow(postFinished);
  setUpAuthScreens(async () => {
    try {
      state.me = await me();
    } catch (failure) {
      showMessage(byId('login-error'), failure.message);
      return;
    }
    location.hash = '#/map';
    if (state.pinMap) await load();
  });
  setUpTopBar();
  setUpTabs();
  window.addEventListener('hashchange', route);
  try {
    state.me = await me();
  } catch (failure) {
    state.me = null;
    if (failure.kind !== 'session') showMessage(byId('login-error'), failure.message);
  }
  await route();
}

start();
