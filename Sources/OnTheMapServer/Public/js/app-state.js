// The web client's state, held in one place and changed in one place. Modules read
// `appState.state`, a frozen snapshot (writing to it throws), change it only through
// `appState.set(changes)`, and subscribe to the fields they draw. No document here: node tests it.
import { mergeChanges } from './live-merge.js';

/**
 * A store of `initial`'s fields. `set(changes)` replaces the snapshot with one that has the changed
 * fields (a field not in `initial` is a mistake and throws), then calls, once each and in the order
 * they subscribed, the listeners of any field whose value changed (`Object.is`): no change, no
 * call. `subscribe(fields, listener)` returns the function that ends the subscription; a listener
 * gets the newest snapshot and the names of the fields that changed.
 */
export function createStore(initial) {
  let current = Object.freeze({ ...initial });
  const listeners = new Set();
  return {
    get state() { return current; },

    set(changes) {
      const unknown = Object.keys(changes).filter((field) => !(field in current));
      if (unknown.length) throw new Error(`not a field of the state: ${unknown.join(', ')}`);
      const changed = Object.keys(changes).filter((field) => !Object.is(current[field], changes[field]));
      if (changed.length === 0) return;
      current = Object.freeze({ ...current, ...changes });
      for (const listener of [...listeners]) {
        // One that an earlier listener ended is not called.
        if (listeners.has(listener) && listener.fields.some((field) => changed.includes(field))) listener.run(current, changed);
      }
    },

    subscribe(fields, run) {
      const listener = { fields, run };
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
  };
}

/** The app's state: what the screens draw, and the choices they were drawn with. */
export const appState = createStore({
  me: null, // the logged-in caller's profile (GET /v1/me), null when no one is logged in
  course: null, // the course whose map shows: its slug, or null for the default course (course-choice.js)
  courses: null, // the caller's courses (GET /v1/courses), null until known
  canCreateCourses: true, // whether the caller may start a course (GET /v1/courses says; --course-creators)
  loaded: false, // `latest` and `shown` hold the logged-in caller's posts
  latest: [], // the 100 newest posts: the list
  shown: [], // the map's pins: the posts the Show choice names, and the caller's own
  pinCount: '100', // the Show choice: '100', another number as a string, or 'all'
  waiting: [], // the logged-in student's posts waiting on this device (outbox.js)
  liveState: null, // the live stream: 'live', 'reconnecting', or null when it is stopped
  syncedAt: null, // when the posts were last known to be current (a Date)
  offline: false, // the posts shown are the copy saved for offline use
});

/**
 * The fields a load sets: the caller, the newest posts (`latest`) and the pins (`pins`, or the
 * newest posts when null). The caller's own pin is always on the map, even when it is older than
 * the posts shown.
 */
export function loadedFields(caller, latest, pins) {
  const shown = pins || [...latest];
  const mine = caller.location && caller.location.objectId;
  if (caller.location && !shown.some((post) => post.objectId === mine)) shown.push(caller.location);
  return { me: caller, latest, shown, loaded: true };
}

/**
 * A batch of live changes folded into `state`: the fields to set (the caller's own post when it
 * changed, the list, the pins) and the ids of the pins that left the map (`removed`). The pins keep
 * the Show choice's count and never drop the caller's own.
 */
export function changedFields(state, changes) {
  const mine = state.me.location && state.me.location.objectId;
  // The caller's pin that waits for approval, or that a moderator hid, left everyone else's map:
  // its owner still has it (GET /v1/me said so), so its going is not theirs to follow.
  if (mine && (state.me.locationAwaitingApproval || state.me.locationHidden)) {
    changes = changes.filter((change) => !(change.objectId === mine && change.kind === 'deleted'));
  }
  const fields = {};
  for (const change of changes) {
    if (change.objectId === mine) fields.me = { ...(fields.me || state.me), location: change.kind === 'deleted' ? null : change.location };
  }
  fields.latest = mergeChanges(state.latest, changes, { limit: 100 }).posts;
  const limit = state.pinCount === 'all' ? Infinity : Number(state.pinCount);
  const pins = mergeChanges(state.shown, changes, { limit, keep: mine });
  fields.shown = pins.posts;
  return { fields, removed: pins.removed };
}
