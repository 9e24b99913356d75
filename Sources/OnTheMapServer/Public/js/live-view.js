// The live map as the page shows it: batches of changes from the stream folded into the state,
// the list and the pins, and the stream's state in the status line ("live", or when the posts were
// last current).
import { appState, changedFields } from './app-state.js';
import { LiveUpdates } from './live-updates.js';
import { renderPostList } from './post-list.js';
import { pinMap } from './post-views.js';
import { setStatus, statusIsTaken, summary } from './status-line.js';
import { withWaiting } from './waiting-posts.js';

const byId = (id) => document.getElementById(id);

export class LiveView {
  /**
   * @param {object} hooks
   * @param {() => void} hooks.reload  loads the list again, quietly
   * @param {() => void} hooks.reached  the stream is up (again): the server can be reached now
   */
  constructor({ reload, reached }) {
    this.hooks = { reload, reached };
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
          if (pinMap()) this.hooks.reload();
        }
      },
    });
    this.updates.start();
  }

  stop() {
    if (this.updates) this.updates.stop();
    this.updates = null;
    appState.set({ liveState: null });
  }

  /**
   * A batch of changes: folded into the list and the map without a reload, new ones marked,
   * and one polite announcement of how many arrived.
   */
  apply(changes) {
    const map = pinMap();
    if (!appState.state.me || !map) return;
    const mine = appState.state.me.location && appState.state.me.location.objectId;
    const { fields, removed } = changedFields(appState.state, changes);
    appState.set({ ...fields, syncedAt: new Date() });
    const { state } = appState;
    for (const objectId of removed) map.remove(objectId);
    const shownIds = new Set(state.shown.map((post) => post.objectId));
    for (const change of changes) {
      if (change.kind !== 'deleted' && shownIds.has(change.objectId)) map.put(change.location, { fresh: change.objectId !== mine });
    }
    byId('map').dataset.pins = String(state.shown.length);
    const fresh = new Set(changes.filter((change) => change.kind !== 'deleted').map((change) => change.objectId));
    const { rows, mine: ownRow } = withWaiting(state);
    renderPostList(byId('post-list'), byId('list-empty'), rows, ownRow, { fresh });
    const arrived = changes.filter((change) => change.kind !== 'deleted' && change.objectId !== mine).length;
    if (!state.offline) setStatus(summary(state, { arrived }));
  }

  stateChanged(liveState) {
    const before = appState.state.liveState;
    appState.set({ liveState, ...(liveState === 'reconnecting' && before === 'live' ? { syncedAt: new Date() } : {}) });
    const { state } = appState;
    if (pinMap() && !state.offline && !statusIsTaken()) setStatus(summary(state));
    if (liveState !== 'live') return;
    // Back after showing the offline copy: load the current posts.
    if (state.offline) this.hooks.reload();
    this.hooks.reached();
  }
}
