// Posts waiting for the network, kept on this device (IndexedDB) until the server has them.
// Each carries the Idempotency-Key it was first sent with and is only ever sent again with that
// key and the same body: a post whose answer was lost on the way back (a train entering a tunnel)
// is written once, however often it is sent again (docs/API.md, "Idempotency keys").
//
// An entry: { key, account, course, objectId, fields: {mapString, mediaURL, latitude, longitude}, createdAt }.
// `course` is the course whose map it goes to (a slug; null, or absent in a post kept before
// courses, for the default course): it goes there whichever map shows when it is sent.
// `account` is the account key it belongs to (another student logging in on this device neither
// sees nor sends it, and it is sent only once the server has said, just before, that its account
// is the one logged in); `objectId` the pin it replaces, or null for a first pin. A post made before
// its place could be looked up has no coordinates yet: the place is found (the best match, shared
// as the preview would by default) and kept with the post just before it is first sent.
import { ApiError, geocode, holdingSession, saveLocation, sessionAccount } from './api.js';
import { privacyChoice, sharedPlace } from './pin-privacy.js';

const DATABASE = 'onthemap';
const STORE = 'outbox';
// Failures after which the post waits for another try: nothing was changed, or nothing known to be.
const TRY_AGAIN = new Set(['network', 'server', 'unavailable', 'throttled', 'session']);
// How long asking who the session is and sending one post may take: meanwhile no tab of this
// browser can log in or out (holdingSession), so a send the network holds up gives up and waits.
const SEND_TIMEOUT_MS = 20_000;

let opened = null;

function database() {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opened;
}

/** Runs `work(store)` in one transaction; resolves with what its last request gave, once committed. */
async function transact(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(STORE, mode);
    const request = work(transaction.objectStore(STORE));
    transaction.oncomplete = () => resolve(request && request.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/** A new Idempotency-Key: a random UUID (randomUUID needs a secure context; getRandomValues does not). */
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The course a waiting post goes to: a slug, or null for the default course. */
export const courseOf = (entry) => entry.course || null;

/**
 * Keeps a post to send later. A student has one pin per course: a newer waiting post replaces an
 * older one for the same course.
 */
export async function keep(entry) {
  const older = (await waiting(entry.account)).filter((post) => courseOf(post) === courseOf(entry));
  await transact('readwrite', (store) => {
    for (const post of older) if (!inFlight.has(post.key)) store.delete(post.key);
    return store.put(entry);
  });
  changed();
}

/** The account's waiting posts, for every course, oldest first. */
export async function waiting(account) {
  const all = await transact('readonly', (store) => store.getAll());
  return (all || []).filter((entry) => entry.account === account).sort((a, b) => a.createdAt - b.createdAt);
}

/** Drops every waiting post of the account (the student chose so as they logged out). */
export async function discardAll(account) {
  const posts = await waiting(account);
  await transact('readwrite', (store) => {
    for (const post of posts) store.delete(post.key);
    return null;
  });
  changed();
}

/** Drops a waiting post (the student cancelled it); false when it is being sent right now. */
export async function cancel(key) {
  if (inFlight.has(key)) return false;
  await transact('readwrite', (store) => store.delete(key));
  changed();
  return true;
}

// Keys being sent by this tab, the one sending run at a time, and the run asked for while it went.
const inFlight = new Set();
let run = null;
let followUp = null;
let asked = null;

/** Whether the post with this key is being sent now. */
export const isSending = (key) => inFlight.has(key);

/**
 * Sends the account's waiting posts, oldest first, each with its own key. `onSent(entry, saved)`
 * after the server took one, `onRefused(entry, failure)` when it refused it for good (the post
 * is dropped: sending it again would be refused again), `onOtherAccount()` when the browser's
 * session turned out to be another account's (logged in from another tab): nothing is sent then.
 * Anything else leaves it waiting. Several tabs may send at once: the key makes the server write it
 * once (Web Locks keep it to one tab where the browser has them). Asked while a run goes, it runs
 * again once that run ends (with the last account asked for): the ask may be the network coming
 * back just as the run failed without it, and the post would wait for the next half-minute try.
 */
export function sendWaiting(account, hooks) {
  if (run) {
    asked = { account, hooks };
    followUp ??= run.catch(() => {}).then(() => {
      const next = asked;
      followUp = null;
      asked = null;
      return sendWaiting(next.account, next.hooks);
    });
    return followUp;
  }
  run = (async () => {
    try {
      const send = () => sendEach(account, hooks);
      if (navigator.locks) await navigator.locks.request('onthemap-outbox', send);
      else await send();
    } finally {
      run = null;
    }
  })();
  return run;
}

async function sendEach(account, { onSent, onRefused, onOtherAccount }) {
  for (const entry of await waiting(account)) {
    inFlight.add(entry.key);
    changed();
    try {
      if (!Number.isFinite(entry.fields.latitude)) await findPlace(entry);
      const outcome = await holdingSession(() => sendIfStillTheirs(entry));
      if (outcome.gone) continue;
      if (outcome.unsure) return;   // the rest wait with it
      if (outcome.otherAccount) {
        onOtherAccount();
        return;
      }
      await transact('readwrite', (store) => store.delete(entry.key));
      onSent(entry, outcome.saved);
    } catch (failure) {
      const waitsOn = TRY_AGAIN.has(failure.kind) || (failure.kind === 'conflict' && failure.key === 'error.inProgress');
      if (waitsOn) return;   // the rest wait with it: the network (or the server) is not there yet
      await transact('readwrite', (store) => store.delete(entry.key));
      onRefused(entry, failure);
    } finally {
      inFlight.delete(entry.key);
      changed();
    }
  }
}

/**
 * Sends the post if it still waits and the session is still its account's, both asked just before
 * (the caller holds the session lock, so no login or logout comes in between): `{saved}`, or
 * `{gone}` (dropped meanwhile, by another tab), `{otherAccount}` (someone else is logged in),
 * `{unsure}` (no one is, or the server did not say). A cookie is the browser's, not a tab's: this
 * tab's idea of who is logged in may be out of date, and the post would go as whoever is now.
 */
async function sendIfStillTheirs(entry) {
  const signal = AbortSignal.timeout ? AbortSignal.timeout(SEND_TIMEOUT_MS) : undefined;
  const kept = await transact('readonly', (store) => store.get(entry.key));
  if (!kept) return { gone: true };
  let account;
  try {
    account = await sessionAccount({ signal });
  } catch {
    return { unsure: true };
  }
  if (account !== entry.account) return { otherAccount: true };
  return { saved: await saveLocation(entry.objectId, entry.fields, { course: courseOf(entry), idempotencyKey: entry.key, signal }) };
}

/**
 * Finds the place of a post typed offline and keeps it with the post, so that every sending of it
 * has the same body (the key's rule); a post dropped meanwhile stays dropped. Nothing found:
 * refused, with the words the form would use.
 */
async function findPlace(entry) {
  const typed = entry.fields.mapString;
  const { input, results } = await geocode(typed);
  if (!results || results.length === 0) throw new ApiError('invalid', 'post.notFound', { params: { place: typed } });
  const choice = privacyChoice(input, results[0], typed);
  const place = sharedPlace(results[0], typed, choice, choice ? choice.initial : 'exact');
  entry.fields = { ...entry.fields, ...place };
  await transact('readwrite', (store) => {
    const kept = store.get(entry.key);
    kept.onsuccess = () => { if (kept.result) store.put(entry); };
    return kept;
  });
}

const listeners = new Set();

/** Calls `listener()` whenever a post is kept, cancelled, starts or stops being sent. */
export function onOutboxChange(listener) {
  listeners.add(listener);
}

function changed() {
  for (const listener of listeners) listener();
}
