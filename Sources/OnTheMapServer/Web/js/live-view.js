// The live map as the page shows it: batches of changes from the stream folded into the list and
// the pins, and the stream's state in the status line ("live", or when the posts were last current).
import { lazy, msg, t } from './i18n.js';
import { mergeChanges } from './live-merge.js';
import { LiveUpdates } from './live-updates.js';
import { renderPostList } from './post-list.js';
import { withWaiting } from './waiting-posts.js';
import { clockTime } from './time.js';

const byId = (id) => document.getElementById(id);

/**
 * The status line's summary of `state`: how many posts, and how current they are. A Message, put
 * into words when shown (and again after a change of language), of the state when it was made.
 */
export function summary(state, { arrived = 0 } = {}) {
  const count = state.shown.length;
  if (count === 0) return msg('status.noPosts');
  const { liveState } = state;
  const syncedAt = state.syncedAt || new Date();
  return lazy(() => {
    const parts = [t('status.showing', { count })];
    if (liveState === 'live') {
      parts.push(t('status.live'));
      if (arrived > 0) parts.push(t('status.arrived', { count: arrived }));
    } else {
      parts.push(t('status.updated', { when: clockTime(syncedAt) }));
      if (liveState === 'reconnecting') parts.push(t('status.reconnecting'));
    }
    return parts.join(' · ');
  });
}

export class LiveView {
  /**
   * @param {object} state  the app's state (me, latest, shown, pinCount, pinMap, liveState, syncedAt, offline)
   * @param {object} hooks
   * @param {(text: string|Message) => void} hooks.setStatus  writes the status line, the page's one polite live region
   * @param {() => boolean} hooks.statusIsTaken  true while the status line says something else (loading, an error)
   * @param {() => void} hooks.reload  loads the list again, quietly
   * @param {() => void} hooks.reached  the stream is up (again): the server can be reached now
   */
  constructor(state, { setStatus, statusIsTaken, reload, reached }) {
    this.state = state;
    this.hooks = { setStatus, statusIsTaken, reload, reached };
    this.updates = null;
  }

  /** Starts the stream (once per login). The first `ready` reloads quietly, closing any gap
   * between the first list and the stream's start; so does every `reload`. */
  start() {
    if (this.updates) return;
    let first = true;
    this.updates = new LiveUpdates({
      onChanges: (changes) => this.apply(changes),
      onReload: () => this.hooks.reload(),
      onState: (liveState) => {
        this.stateChanged(liveState);
        if (liveState === 'live' && first) {
          first = false;
          if (this.state.pinMap) this.hooks.reload();
        }
      },
    });
    this.updates.start();
  }

  stop() {
    if (this.updates) this.updates.stop();
    this.updates = null;
    this.state.liveState = null;
  }

  /**
   * A batch of changes: folded into the list and the map without a reload, new ones marked,
   * and one polite announcement of how many arrived.
   */
  apply(changes) {
    const { state } = this;
    if (!state.me || !state.pinMap) return;
    const mine = state.me.location && state.me.location.objectId;
    for (const change of changes) {
      if (change.objectId === mine) state.me.location = change.kind === 'deleted' ? null : change.location;
    }
    state.latest = mergeChanges(state.latest, changes, { limit: 100 }).posts;
    const pins = mergeChanges(state.shown, changes, { limit: state.pinCount === 'all' ? Infinity : Number(state.pinCount), keep: mine });
    state.shown = pins.posts;
    for (const objectId of pins.removed) state.pinMap.remove(objectId);
    const shownIds = new Set(pins.posts.map((post) => post.objectId));
    for (const change of changes) {
      if (change.kind !== 'deleted' && shownIds.has(change.objectId)) state.pinMap.put(change.location, { fresh: change.objectId !== mine });
    }
    byId('map').dataset.pins = String(state.shown.length);
    const fresh = new Set(changes.filter((change) => change.kind !== 'deleted').map((change) => change.objectId));
    const { rows, mine: ownRow } = withWaiting(state);
    renderPostList(byId('post-list'), byId('list-empty'), rows, ownRow, { fresh });
    state.syncedAt = new Date();
    const arrived = changes.filter((change) => change.kind !== 'deleted' && change.objectId !== mine).length;
    if (!state.offline) this.hooks.setStatus(summary(state, { arrived }));
  }

  stateChanged(liveState) {
    const { state } = this;
    if (liveState === 'reconnecting' && state.liveState === 'live') state.syncedAt = new Date();
    state.liveState = liveState;
    if (state.pinMap && !state.offline && !this.hooks.statusIsTaken()) this.hooks.setStatus(summary(state));
    if (liveState !== 'live') return;
    // Back after showing the offline copy: load the current posts.
    if (state.offline) this.hooks.reload();
    this.hooks.reached();
  }
}
