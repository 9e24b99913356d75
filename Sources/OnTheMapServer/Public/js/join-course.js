// Joining a course by its invite link (`/c/{course}/join/{token}`, which the server sends on to
// `#/join/{course}/{token}`). A logged-in student joins at once and lands on the course's map; a
// visitor is asked to log in or sign up first (the login and sign-up screens say which course it
// is for), and joins right after. The link waits in this tab's session storage meanwhile, so that
// a sign-in at a provider, which leaves the page and comes back, joins too.
import { errorMessage, joinCourse } from './api.js';
import { appState } from './app-state.js';
import { showMessage } from './dom.js';
import { msg } from './i18n.js';
import { onNextLogin, showCourseNotice, switchCourse } from './loader.js';

const STORAGE_KEY = 'onthemap.join';
const byId = (id) => document.getElementById(id);

/** The invite waiting for a login, if any: `{course, token}`. */
function waitingInvite() {
  try {
    const invite = JSON.parse(sessionStorage.getItem(STORAGE_KEY) || 'null');
    return invite && typeof invite.course === 'string' && typeof invite.token === 'string' ? invite : null;
  } catch {
    return null;
  }
}

function keepInvite(invite) {
  try {
    if (invite) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(invite));
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch { /* not kept: joining waits for this page's login only */ }
}

/** Says on the login and sign-up screens which course logging in will join (or nothing). */
function explainInvite(invite) {
  for (const id of ['login-join-notice', 'signup-join-notice']) {
    showMessage(byId(id), invite ? msg('join.logInFirst', { course: invite.course }) : '');
  }
}

/**
 * Opens an invite link: joins now when someone is logged in, else keeps it for the next login and
 * shows the login screen (whose link to sign up keeps it too).
 */
export async function openInvite({ course, token }) {
  const invite = { course, token };
  if (!appState.state.me) {
    keepInvite(invite);
    explainInvite(invite);
    onNextLogin(() => joinWaitingInvite());
    location.replace('#/login');
    return;
  }
  await join(invite);
}

/**
 * At start: joins the invite kept for a login, if any, when someone is logged in now (back from a
 * provider's sign-in), and says true; with no one logged in, the login screen explains it again.
 */
export async function joinWaitingInvite() {
  const invite = waitingInvite();
  if (!invite) return false;
  if (!appState.state.me) {
    explainInvite(invite);
    onNextLogin(() => joinWaitingInvite());
    return false;
  }
  await join(invite);
  return true;
}

/** Joins, then shows the course's map saying so; a refusal shows the map the student had, saying why. */
async function join(invite) {
  keepInvite(null);
  explainInvite(null);
  try {
    const { course, joined } = await joinCourse(invite.course, invite.token);
    location.replace('#/map');
    await switchCourse(course.slug);
    showCourseNotice(msg(joined ? 'join.joined' : 'join.alreadyMember', { course: course.title }));
  } catch (failure) {
    location.replace('#/map');
    showCourseNotice(msg('join.failed', { reason: errorMessage(failure) }));
  }
}
