// The server's API as the client uses it. Every failure becomes an ApiError whose `kind` says
// what went wrong (so screens can tell a network failure from wrong credentials) and whose
// `message` is written for the person using the app.

/** Bytes the Udacity-compatible session endpoints put before their JSON (api-contract.md §2). */
const UDACITY_PREFIX = ")]}'\n";

export class ApiError extends Error {
  /**
   * @param {'network'|'credentials'|'throttled'|'session'|'invalid'|'conflict'|'unavailable'|'server'} kind
   */
  constructor(kind, message, status = 0) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

const networkMessage = 'Can’t reach the server. Check your internet connection and try again.';

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

/** The XSRF cookie the server set at login, echoed on every write (api-contract.md §5.5). */
function xsrfToken() {
  const match = document.cookie.split('; ').find((item) => item.startsWith('XSRF-TOKEN='));
  return match ? decodeURIComponent(match.slice('XSRF-TOKEN='.length)) : '';
}

/** Sends a request and returns the parsed JSON body; throws ApiError on any failure. */
export async function request(method, path, { body, prefixed = false, describe = describeFailure } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers['X-XSRF-TOKEN'] = xsrfToken();
  let response;
  let text;
  try {
    response = await fetch(path, {
      method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body),
    });
    text = await response.text();
  } catch {
    throw new ApiError('network', networkMessage);
  }
  if (response.headers.has('X-Offline-Copy')) {
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
  if (!response.ok) throw describe(response, json);
  if (json === null) {
    // A proxy's or portal's page instead of the API's JSON.
    throw new ApiError('server', 'The server sent an answer the app could not read. Try again later.', response.status);
  }
  return json;
}

/** The generic reading of an error answer. */
function describeFailure(response, json) {
  const serverText = json && typeof json.error === 'string' ? json.error : '';
  switch (response.status) {
    case 401:
      return new ApiError('session', 'Your session has ended. Please log in again.', 401);
    case 429: {
      const wait = Number(response.headers.get('Retry-After'));
      const when = wait > 0 ? ` Try again in ${wait} second${wait === 1 ? '' : 's'}.` : ' Try again in a minute.';
      return new ApiError('throttled', `Too many attempts.${when}`, 429);
    }
    case 503:
      return new ApiError('unavailable', 'The server is starting up. Try again in a few seconds.', 503);
    default:
      if (response.status >= 500) {
        return new ApiError('server', `The server ran into a problem (${response.status}). Try again later.`, response.status);
      }
      return new ApiError('invalid', serverText || `The request was refused (${response.status}).`, response.status);
  }
}

/** Logs in; wrong credentials are their own kind of failure. */
export function logIn(email, password) {
  return request('POST', '/v1/session', {
    body: { udacity: { username: email, password } },
    prefixed: true,
    describe: (response, json) => {
      if (response.status !== 403) return describeFailure(response, json);
      // Said only after the right password: the account exists and an admin disabled it.
      if (json && typeof json.error === 'string' && json.error.startsWith('This account has been disabled')) {
        return new ApiError('credentials', `${json.error} Ask them if you think this is a mistake.`, 403);
      }
      return new ApiError('credentials', 'That email and password don’t match an account. Check them and try again.', 403);
    },
  });
}

/** Creates an account and logs it in. */
export function signUp(fields) {
  return request('POST', '/v1/accounts', {
    body: fields,
    describe: (response, json) => (response.status === 409
      ? new ApiError('conflict', 'An account with that email already exists. Log in instead.', 409)
      : describeFailure(response, json)),
  });
}

/** Sets a new password with the token of a reset link an admin gave. */
export function resetPassword(token, password) {
  return request('POST', '/v1/password-reset', { body: { token, password } });
}

/** Reports someone else's pin to the map's admins. */
export function reportPin(objectId, reason) {
  return request('POST', '/v1/reports', { body: { objectId, reason } });
}

/** Ends the session; the server clears both cookies. */
export function logOut() {
  return request('DELETE', '/v1/session', { prefixed: true });
}

/** `{account, location}` for the logged-in caller; ApiError 'session' when not logged in. */
export function me() {
  return request('GET', '/v1/me');
}

let configRequest = null;

/**
 * The client's settings: `{signIn: [{id, name, start}], tiles: {url, attribution} | null}`. Asked
 * once per page (the basemap and the login page both want them); asked again after a failure.
 */
export function clientConfig() {
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
  if (count !== 'all' && count <= 100) return (await request('GET', '/v1/StudentLocation')).results;
  const pageSize = count === 'all' ? 1000 : count;
  const seen = new Set();
  const all = [];
  let fullPage = 0;
  for (let skip = 0; ; ) {
    const page = (await request('GET', `/v1/StudentLocation?limit=${pageSize}&skip=${skip}&order=-updatedAt`)).results;
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

/** Creates the caller's pin, or updates it when `objectId` names their existing one. */
export function saveLocation(objectId, fields) {
  return objectId
    ? request('PUT', `/v1/StudentLocation/${encodeURIComponent(objectId)}`, { body: fields })
    : request('POST', '/v1/StudentLocation', { body: fields });
}
