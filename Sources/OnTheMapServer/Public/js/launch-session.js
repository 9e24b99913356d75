// A session handed over by an LTI launch (LTI/LTIController.swift). Learning platforms show the map
// in a frame of their page, where the browser may keep no cookie of ours (third-party cookies
// blocked), so the launch's page carries its session in a data block and every request of this
// page sends it as a bearer token. The tab keeps it where the browser lets a frame keep anything
// (sessionStorage), so that the page loaded again in the frame goes on; where it does not, the
// page says to open the map again from the course. A launch in a window of its own also got the
// cookies: its address becomes the app's own, which loads again with them.

const BLOCK_ID = 'launch-session';
const STORAGE_KEY = 'onthemap-launch';

/** The launch page's block: `{token?, course?, reload}`, or null on any other page. */
function readBlock() {
  // Outside a page (the modules' tests under node) there is no launch.
  if (typeof document === 'undefined') return null;
  const element = document.getElementById(BLOCK_ID);
  if (!element) return null;
  try {
    const block = JSON.parse(element.textContent);
    return block && typeof block.reload === 'string' ? block : null;
  } catch {
    return null;
  }
}

function stored() {
  try {
    const value = JSON.parse(sessionStorage.getItem(STORAGE_KEY));
    return value && typeof value.token === 'string' ? value : null;
  } catch {
    return null;
  }
}

function keep(value) {
  try {
    if (value) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(value));
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // A frame whose storage the browser blocks: the session lasts as long as the page.
  }
}

/** Whether the page is shown inside another page's frame. */
export const framed = (() => {
  if (typeof window === 'undefined') return false;
  try {
    return window.top !== window.self;
  } catch {
    return true;
  }
})();

const block = readBlock();

/** Whether this page came from an LTI launch (or is one loaded again in the platform's frame). */
export const launched = block !== null;

let held = null;
if (block) {
  held = typeof block.token === 'string' ? { token: block.token, course: block.course ?? null } : stored();
  if (typeof block.token === 'string') keep(held);
  // Loading the page again must not post the launch again (its state is used): in the frame the
  // launch's own address, which keeps the frame's permission; in a window, the app's page.
  const address = (framed ? block.reload : '/') + (location.hash || '#/map');
  history.replaceState(history.state, '', address);
}

/** The launch's session token, or null (then the cookies carry the session, if any). */
export function bearerToken() {
  return held ? held.token : null;
}

/** The course the launch opened (a slug), or null. */
export function launchCourse() {
  return held ? held.course : null;
}

/** The course shown changed: the page loaded again in the frame opens that one. */
export function noteLaunchCourse(slug) {
  if (!held) return;
  held = { ...held, course: slug };
  keep(held);
}

/** Logged out: the launch's session is over. */
export function endLaunchSession() {
  held = null;
  keep(null);
}

/** Whether the page is in a platform's frame with a session it cannot carry into a window of its own by cookie. */
export function mayOpenWindow() {
  return framed && held !== null;
}
