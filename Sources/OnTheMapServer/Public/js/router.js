// Which screen shows: the one the URL's hash names (routes.js), and what opening each one takes
// (the app screen's tabs, the admin area, the post flow and the way back from it).
import { AdminScreen } from './admin-screen.js';
import { CourseScreen } from './course-screen.js';
import { CoursesScreen } from './courses-screen.js';
import { openInvite } from './join-course.js';
import { errorMessage } from './api.js';
import { appState } from './app-state.js';
import { msg } from './i18n.js';
import { framed, launched } from './launch-session.js';
import { live, load, loggedOut, openPosts, waitingPosts } from './loader.js';
import { mapCode } from './map-code.js';
import { pinMap, showPosts } from './post-views.js';
import { routeFor } from './routes.js';
import { setStatus } from './status-line.js';
import { withWaiting } from './waiting-posts.js';

const byId = (id) => document.getElementById(id);
const SCREENS = [
  'login-screen', 'signup-screen', 'app-screen', 'post-screen', 'admin-screen', 'courses-screen', 'course-screen', 'reset-screen',
  'launch-ended-screen',
];

let postFlow = null;
let admin = null;
let courses = null;
let course = null;
// What to focus when the app screen shows next (the opener of a screen that closed).
let focusOnReturn = null;

/** Shows the screen the hash names, sending logged-out visitors to login. */
export async function route() {
  const target = routeFor(location.hash, appState.state.me !== null);
  if (target.redirect) {
    // The address changes without a hashchange event, which would wait its turn among the page's
    // tasks (some 50 ms at start): this call goes on to the screen at once.
    history.replaceState(history.state, '', target.redirect);
    return route();
  }
  switch (target.screen) {
    case 'reset': showScreen('reset-screen'); byId('reset-password').focus(); break;
    case 'admin': await openAdmin(target.section); break;
    case 'join': await openInvite(target); break;
    case 'courses': await openCourses(); break;
    case 'course': await openCourse(target.course, target.section); break;
    case 'login':
      // In a platform's frame the platform signs the student in: a login form there could not
      // keep its cookie.
      if (launched && framed) {
        showScreen('launch-ended-screen');
        break;
      }
      showScreen('login-screen');
      // The page may have shown the form before its script came: whoever has started typing
      // keeps their place.
      if (!byId('login-form').contains(document.activeElement)) byId('login-email').focus();
      // While the student types, the map's code arrives: the map then opens at once after login.
      setTimeout(() => mapCode().catch(() => {}), 0);
      break;
    case 'signup': showScreen('signup-screen'); byId('signup-first').focus(); break;
    case 'post': await openPostFlow(); break;
    default: await showTab(target.screen);
  }
}

/**
 * Routes on every change of the hash, and to the login screen when the caller is logged out (the
 * state's `me` becomes null); wires the tabs' arrow keys and the skip link.
 */
export function setUpNavigation() {
  window.addEventListener('hashchange', route);
  appState.subscribe(['me'], (state) => {
    if (state.me !== null) return;
    if (location.hash === '#/login') route();
    else location.replace('#/login');
  });
  // Arrow keys move between the Map and List tabs (the ARIA tabs pattern).
  document.querySelector('.tabs').addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = location.hash === '#/list' ? 'map' : 'list';
    location.hash = `#/${next}`;
    byId(`tab-${next}`).focus();
  });
  // The skip link moves focus without touching the hash, which names the screen.
  document.querySelector('.skip-link').addEventListener('click', (event) => {
    event.preventDefault();
    const target = byId('app-screen').hidden ? document.querySelector('main:not([hidden])') : byId('main-content');
    if (target) { target.tabIndex = -1; target.focus(); }
  });
}

/** After a change of language: the post flow and the admin area, built from data, again in it. */
export function relabelScreens() {
  if (postFlow) postFlow.relabel();
  if (admin && !byId('admin-screen').hidden) admin.refresh();
  if (course && !byId('course-screen').hidden) course.refresh();
  if (courses && !byId('courses-screen').hidden) courses.draw();
}

function showScreen(id) {
  byId('boot-loading').hidden = true;
  for (const screen of SCREENS) byId(screen).hidden = screen !== id;
  // When each screen first shows: how a slow first visit is measured (bench_first_visit.py).
  if (!performance.getEntriesByName(`shown-${id}`).length) performance.mark(`shown-${id}`);
}

/**
 * Focus once the app screen shows: on what asked for it (the opener of a screen that closed),
 * else on the main content when focus was left on nothing (after login).
 */
function placeFocus() {
  const wanted = focusOnReturn;
  focusOnReturn = null;
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
  await openPosts();
  if (tab === 'map' && pinMap()) pinMap().resize();
}

/** The admin area, for admins; anyone else goes back to the map. */
async function openAdmin(section) {
  if (!appState.state.me.account.isAdmin) { location.replace('#/map'); return; }
  live.stop();
  admin ??= new AdminScreen(
    (failure) => (failure.kind === 'session' ? loggedOut(errorMessage(failure)) : location.replace('#/map')),
    () => appState.state.me.account.key);
  showScreen('admin-screen');
  await admin.show(section);
  const tab = document.querySelector('#admin-screen [role="tab"][aria-selected="true"]');
  if (tab && !byId('admin-screen').contains(document.activeElement)) tab.focus();
}

/** The caller's courses and the form to start one. */
async function openCourses() {
  courses ??= new CoursesScreen((failure) => loggedOut(errorMessage(failure)));
  showScreen('courses-screen');
  if (!byId('courses-screen').contains(document.activeElement)) byId('courses-title').focus({ preventScroll: true });
  await courses.show();
}

/** A course's page, for its instructors; anyone else is sent back to their courses. */
async function openCourse(slug, section) {
  course ??= new CourseScreen((failure) => (failure.kind === 'session' ? loggedOut(errorMessage(failure)) : location.replace('#/courses')));
  showScreen('course-screen');
  await course.show(slug, section);
  const tab = document.querySelector('#course-screen [role="tab"][aria-selected="true"]');
  if (tab && !byId('course-screen').contains(document.activeElement)) tab.focus();
}

async function openPostFlow() {
  const previous = byId('app-screen').hidden ? null : document.activeElement;
  const { PostFlow } = await mapCode(); // the post flow's code arrives with the map's
  postFlow ??= new PostFlow(postFinished, loggedOut);
  const { me } = appState.state;
  const started = await postFlow.start(me.location, me.account.key, appState.state.course);
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
  focusOnReturn = byId('post-button');
  location.hash = '#/map';
  if (waiting) {
    // No network: the post waits on this device, shown as the student's pin, and goes when it can.
    await waitingPosts.refresh();
    await showPosts();
    setStatus(msg(navigator.onLine === false ? 'outbox.kept' : 'outbox.keptUnreachable'));
    pinMap().focus(withWaiting(appState.state).mine);
    waitingPosts.send();
    return;
  }
  if (!objectId) return;
  await load({ keepView: true });
  pinMap().focus(objectId);
}
