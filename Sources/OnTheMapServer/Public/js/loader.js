// The posts behind the map and the list: the session check at start, the first load and every
// reload, and what keeps them current between loads (the live stream, the posts waiting on this
// device). Leaving the session is here too, as a failed load may end it.
import { errorMessage, latestLocations, mayBeLoggedIn, me, myCourses, offlineCopySavedAt, trackOfflineCopies } from './api.js';
import { appState, loadedFields } from './app-state.js';
import { chooseCourse, DEFAULT_COURSE, rememberedCourse } from './course-choice.js';
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
    sessionAnswer = await meInACourseOfTheirs();
    appState.set({ me: sessionAnswer });
    knowCourses();
  } catch (failure) {
    appState.set({ me: null });
    if (failure.kind !== 'session') showMessage(byId('login-error'), errorMessage(failure));
  }
}

/**
 * Says something about the course shown under the status line until the map changes course: why
 * it is not the one remembered, or what came of joining one. The status line's own words give way
 * to each load's summary.
 */
export function showCourseNotice(message) {
  showMessage(byId('course-notice'), message);
}

// Why the map shown is the default course's, not the one remembered: said once the posts show.
let fellBack = null;

/**
 * The caller at the course shown; when that course is not theirs to see (they were removed, it
 * was deleted), at the default course instead, which the app then shows, saying why.
 */
async function meInACourseOfTheirs() {
  try {
    return await me();
  } catch (failure) {
    if (failure.kind !== 'course' || appState.state.course === null) throw failure;
    fellBack = errorMessage(failure);
    chooseCourse(null);
    return me();
  }
}

/**
 * Asks for the caller's courses (the top bar's switcher), not holding up the map. A student who
 * never chose a map on this browser, and is in a course besides the default one, is shown that
 * course's: a class's students were added to it, or joined it elsewhere.
 */
export function knowCourses() {
  return myCourses().then(({ results: courses, canCreate }) => {
    if (!appState.state.me) return;
    appState.set({ courses, canCreateCourses: canCreate });
    const own = courses.find((course) => course.slug !== DEFAULT_COURSE && course.role !== null);
    if (rememberedCourse() === null && own && appState.state.course === null) switchCourse(own.slug);
  }).catch(() => {});
}

/** Shows `slug`'s map (null: the default course's), remembered for the next visit. */
export async function switchCourse(slug) {
  const wanted = slug === DEFAULT_COURSE ? null : slug;
  if (wanted === appState.state.course) { chooseCourse(wanted); return; }
  live.stop();
  sessionAnswer = null;
  showCourseNotice('');
  chooseCourse(wanted);
  appState.set({ loaded: false, latest: [], shown: [] });
  await waitingPosts.refresh();
  // A course just joined or made is not in the list the switcher had.
  if (wanted && !(appState.state.courses || []).some((course) => course.slug === wanted)) knowCourses();
  await load();
  if (appState.state.me) live.start();
}

// What a login or sign-up goes on to instead of the map (joining a course by its link).
let afterLogin = null;

/** Makes the next login or sign-up run `next()` instead of showing the map (null: the map again). */
export function onNextLogin(next) {
  afterLogin = next;
}

/** After the login or sign-up form: the caller's profile, then the map. */
export async function loggedIn() {
  sessionAnswer = null;
  try {
    appState.set({ me: await meInACourseOfTheirs() });
  } catch (failure) {
    showMessage(byId('login-error'), errorMessage(failure));
    return;
  }
  knowCourses();
  if (afterLogin) {
    const next = afterLogin;
    afterLogin = null;
    await next();
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
  appState.set({ me: null, loaded: false, courses: null });
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
  const { course } = appState.state;
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
    const caller = sessionAnswer ?? meInACourseOfTheirs();
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
      if (fellBack) {
        showCourseNotice(fellBack);
        fellBack = null;
      }
      // The server answered: whatever waits on this device can go now.
      waitingPosts.send();
    }
  } catch (failure) {
    // The course shown is not the caller's (any more): the default course's map instead, saying why.
    if (failure.kind === 'course' && course !== null && generation === loads) {
      if (appState.state.course === course) chooseCourse(null);
      live.stop();
      await load({ keepView });
      live.start();
      showCourseNotice(errorMessage(failure));
      return;
    }
    if (generation === loads) byId('list-loading').hidden = true;
    if (generation === loads && !quiet) failed(failure, () => load());
  } finally {
    if (generation === loads && !quiet) setBusy(button, false);
  }
}
