// The server's API as the client uses it. Every failure becomes an ApiError whose `kind` says
// what went wrong (so screens can tell a network failure from wrong credentials) and whose `key`
// names the catalogue message that explains it to the person using the app (api-errors.js chooses
// it from the answer's status and code; the server's English `error` text is never shown).
import { describeRefusal, NETWORK_FAILURE, UNREADABLE_ANSWER } from './api-errors.js';
import { coursePath } from './course-choice.js';
import { msg } from './i18n.js';
import { bearerToken, endLaunchSession } from './launch-session.js';

/** Bytes the Udacity-compatible session endpoints put before their JSON (docs/API.md, "Path
 * families and error shapes"). */
const UDACITY_PREFIX = ")]}'\n";

export class ApiError extends Error {
  /**
   * @param {'network'|'credentials'|'throttled'|'session'|'invalid'|'conflict'|'unavailable'|'server'|'unconfirmed'|'course'} kind
   *   ('unconfirmed': an admin's account change, refused until they type their password again;
   *   'course': the course asked about is not the caller's to see, or no longer there)
   * @param {string} key  the catalogue message (`error.session`); also the Error's message, for logs
   * @param {object} params  the message's placeholders
   * @param {number} status  the HTTP status (0 without an answer)
   * @param {number|null} code  Parse's error code, when the answer had one
   */
  constructor(kind, key, { params = {}, status = 0, code = null } = {}) {
    super(key);
    this.kind = kind;
    this.key = key;
    this.params = params;
    this.status = status;
    this.code = code;
  }
}

/**
 * What to tell the person about `failure`, as a Message (it follows a change of language): an
 * ApiError's own message, else a general one (a bug, or the basemap's files failing to load).
 */
export function errorMessage(failure) {
  if (failure instanceof ApiError) return msg(failure.key, failure.params);
  return msg('error.unexpected');
}

/** An ApiError from api-errors.js's `{kind, key, params}`. */
function failureOf({ kind, key, params }, status = 0, code = null) {
  return new ApiError(kind, key, { params, status, code });
}

/** The oldest saved copy the service worker answered with since `trackOfflineCopies()`. */
let oldestOfflineCopy = null;

/** Starts noting answers that came from the offline copy rather than the server. */
export function trackOfflineCopies() {
  oldestOfflineCopy = null;
}

/** When the oldest offline copy used since tracking began was saved (a Date), or null if none was. */
export function offlineCopySavedAt() {
  return oldestOfflineCopy;
}

/** The XSRF cookie the server set at login, echoed on every write (docs/API.md, "Who may write"). */
function xsrfToken() {
  const match = document.cookie.split('; ').find((item) => item.startsWith('XSRF-TOKEN='));
  return match ? decodeURIComponent(match.slice('XSRF-TOKEN='.length)) : '';
}

/**
 * Whether this browser may be logged in: the XSRF cookie comes and goes with the session cookie
 * (both set at login with one lifetime, both cleared at logout), and, unlike it, scripts can read
 * it. Without it there is no session to ask about, and the login form need not wait for the answer.
 */
export function mayBeLoggedIn() {
  return bearerToken() !== null || xsrfToken() !== '';
}

/**
 * Sends a request and returns the parsed JSON body; throws ApiError on any failure. `context` names
 * the call for api-errors.js (a 403 at login is wrong credentials; at an admin route, not an admin).
 * A write sent again after its answer was lost carries the same `idempotencyKey` (outbox.js). A
 * `fresh` answer is the server's own, now: no cached or offline copy, which is a network failure.
 * `signal` gives up on the request (a network failure too). `withStatus`: `{status, body}`, for a
 * call whose status says something its body does not (201 Created or 200 OK).
 */
export async function request(method, path, { body, prefixed = false, context = '', idempotencyKey = null, fresh = false, signal, withStatus = false } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  // A launch's session (launch-session.js) goes as a bearer token, which needs no XSRF echo.
  const bearer = bearerToken();
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  else if (method !== 'GET') headers['X-XSRF-TOKEN'] = xsrfToken();
  if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
  let response;
  let text;
  try {
    response = await fetch(path, {
      method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body),
      cache: fresh ? 'no-store' : 'default', signal,
    });
    text = await response.text();
  } catch {
    throw failureOf(NETWORK_FAILURE);
  }
  if (response.headers.has('X-Offline-Copy')) {
    if (fresh) throw failureOf(NETWORK_FAILURE);
    const savedAt = new Date(response.headers.get('X-Offline-Copy'));
    const known = Number.isNaN(savedAt.getTime()) ? new Date(0) : savedAt;
    if (!oldestOfflineCopy || known < oldestOfflineCopy) oldestOfflineCopy = known;
  }
  if (prefixed && text.startsWith(UDACITY_PREFIX)) text = text.slice(UDACITY_PREFIX.length);
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('Retry-After'));
    const refusal = describeRefusal({ status: response.status, body: json, retryAfter: retryAfter > 0 ? retryAfter : 0, context });
    throw failureOf(refusal, response.status, json && typeof json.code === 'number' ? json.code : null);
  }
  // A proxy's or portal's page instead of the API's JSON.
  if (json === null) throw failureOf(UNREADABLE_ANSWER, response.status);
  return withStatus ? { status: response.status, body: json } : json;
}

/**
 * Runs `work()` holding the session lock, which every login and logout holds too (Web Locks span
 * the tabs of an origin). The session cookie is shared by every tab: a login in one changes whom
 * the others' requests are sent as. The outbox asks who the session is and sends a waiting post
 * holding it, so that no login comes in between. Without Web Locks (plain http off localhost) it
 * only runs `work()`: the outbox's question then comes just before its send.
 */
export function holdingSession(work) {
  return navigator.locks ? navigator.locks.request('onthemap-session', work) : work();
}

/** Logs in; wrong credentials are their own kind of failure ('credentials'). */
export function logIn(email, password) {
  const body = { udacity: { username: email, password } };
  return holdingSession(() => request('POST', '/v1/session', { body, prefixed: true, context: 'login' }));
}

/** Creates an account and logs it in. */
export function signUp(fields) {
  return holdingSession(() => request('POST', '/v1/accounts', { body: fields, context: 'signup' }));
}

/** Sets a new password with the token of a reset link an admin gave. */
export function resetPassword(token, password) {
  return request('POST', '/v1/password-reset', { body: { token, password }, context: 'reset' });
}

/** Reports someone else's pin to the map's admins. */
export function reportPin(objectId, reason) {
  return request('POST', '/v1/reports', { body: { objectId, reason }, context: 'report' });
}

/** Ends the session; the server clears both cookies, and a launch's session is forgotten. */
export function logOut() {
  return holdingSession(async () => {
    const answer = await request('DELETE', '/v1/session', { prefixed: true });
    endLaunchSession();
    return answer;
  });
}

/**
 * Proves again that the caller knows their password (an admin about to change accounts, when the
 * server asks); a wrong one is 'credentials', too many tries 'throttled'.
 */
export function confirmPassword(password) {
  return request('POST', '/v1/me/confirm-password', { body: { password }, context: 'confirm' });
}

/**
 * Whether the account `key` has a password to type: one made by a provider's sign-in has none
 * (`_has_password`) until an admin's reset link gives it one.
 */
export async function hasPassword(key) {
  const body = await request('GET', `/v1/users/${encodeURIComponent(key)}`, { prefixed: true });
  return body.user._has_password !== false;
}

/**
 * `{account, location}` for the logged-in caller, their pin being the one in the course shown;
 * ApiError 'session' when not logged in, 'course' when they may not see that course (any more).
 */
export function me() {
  return request('GET', coursePath('/v1/me'), { context: 'course' });
}

/** `{results, canCreate}`: the caller's courses (every course, for an admin), the default course first, and whether they may start one. */
export function myCourses() {
  return request('GET', '/v1/courses');
}

/** Starts a course `{title, slug, visibility}` that the caller teaches: the course. */
export function createCourse(fields) {
  return request('POST', '/v1/courses', { body: fields, context: 'create' });
}

/**
 * Joins `course` with its invite link's token: the course as the caller now sees it, and whether
 * they `joined` now (false: they were a member already).
 */
export async function joinCourse(course, invite) {
  const { status, body } = await request('POST', coursePath('/v1/course/join', course), { body: { invite }, context: 'join', withStatus: true });
  return { course: body, joined: status === 201 };
}

/** The key of the account logged in now, as the server says it (never a saved copy). */
export async function sessionAccount({ signal } = {}) {
  return (await request('GET', '/v1/me', { fresh: true, signal })).account.key;
}

let configRequest = null;

/** The settings the page came with (WebClient/FirstPage.swift), or null. */
function pageConfig() {
  const block = document.getElementById('client-config');
  if (!block) return null;
  try {
    return JSON.parse(block.textContent);
  } catch {
    return null;
  }
}

/**
 * The client's settings: `{signIn: [{id, name, start}], tiles: {url, attribution} | null}`. The
 * page carries them; else (a page kept offline before it did) they are asked for once per page
 * (the basemap and the login page both want them), and again after a failure.
 */
export function clientConfig() {
  const carried = pageConfig();
  if (carried) return Promise.resolve(carried);
  configRequest ??= request('GET', '/config.json').catch((failure) => {
    configRequest = null;
    throw failure;
  });
  return configRequest;
}

/**
 * The newest posts, newest first: `count` of them, or every post when count is 'all'
 * (read page by page, since the server caps a page's size).
 */
export async function latestLocations(count) {
  const list = coursePath('/v1/StudentLocation');
  if (count !== 'all' && count <= 100) return (await request('GET', list, { context: 'course' })).results;
  const pageSize = count === 'all' ? 1000 : count;
  const seen = new Set();
  const all = [];
  let fullPage = 0;
  for (let skip = 0; ; ) {
    const page = (await request('GET', `${list}?limit=${pageSize}&skip=${skip}&order=-updatedAt`, { context: 'course' })).results;
    for (const location of page) {
      // Posts that move while we page could appear twice.
      if (!seen.has(location.objectId)) { seen.add(location.objectId); all.push(location); }
    }
    skip += page.length;
    // The server may cap a page below what was asked: the first page shows the real size.
    fullPage = fullPage || page.length;
    if (count !== 'all' || page.length === 0 || page.length < fullPage) break;
  }
  return all;
}

/**
 * `{ input, confidence, doubts, results }`: what kind of text the student typed, how sure the first
 * answer is and why not, and candidate places, best first.
 */
export function geocode(query) {
  return request('GET', `/v1/geocode?q=${encodeURIComponent(query)}&limit=5`);
}

/**
 * Creates the caller's pin in `course` (a slug, null for the default course), or updates it when
 * `objectId` names their existing one; with the same `idempotencyKey` and fields, written once
 * however often it is sent.
 */
export function saveLocation(objectId, fields, { course, idempotencyKey = null, signal } = {}) {
  const options = { body: fields, context: 'location', idempotencyKey, signal };
  const list = coursePath('/v1/StudentLocation', course);
  return objectId
    ? request('PUT', `${list}/${encodeURIComponent(objectId)}`, options)
    : request('POST', list, options);
}
