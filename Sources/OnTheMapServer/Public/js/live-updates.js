// The live map: a Server-Sent Events stream of created, updated and deleted posts, gathered into
// short batches (one redraw and one announcement per batch, not per pin). The browser's
// EventSource reconnects by itself after a dropped connection and sends the last event id, so the
// server replays what was missed; this module also reopens the stream when the browser gave up
// (an error answer), when the network comes back, when the page is shown again after sleep, and
// when the stream has been silent for longer than three heartbeats.

import { coursePath } from './course-choice.js';
import { bearerToken } from './launch-session.js';
import { TokenEventSource } from './token-event-source.js';

const STREAM_PATH = '/v1/StudentLocation/events';
const BATCH_MS = 400;
const SILENCE_MS = 65_000;

export class LiveUpdates {
  /**
   * @param {object} handlers
   * @param {(changes: Array<{kind: string, location?: object, objectId: string}>) => void} handlers.onChanges
   * @param {() => void} handlers.onReload  the changes missed were too many: load the list again
   * @param {(state: 'live'|'reconnecting') => void} handlers.onState
   */
  constructor({ onChanges, onReload, onState }) {
    this.handlers = { onChanges, onReload, onState };
    this.source = null;
    this.lastEventId = null;
    this.pending = [];
    this.flushTimer = null;
    this.reopenTimer = null;
    this.silenceTimer = null;
    this.retryDelay = 1000;
    this.state = null;
    this.hiddenSince = null;
    // The course's stream, fixed for this stream's life: its event ids mean nothing in another's.
    this.path = coursePath(STREAM_PATH);
    this.stopped = false;
  }

  start() {
    if (typeof EventSource === 'undefined') return;
    this.open();
    window.addEventListener('online', () => this.reopen());
    document.addEventListener('visibilitychange', () => {
      if (document.hidden) { this.hiddenSince = Date.now(); return; }
      // Back from a long sleep: the connection is likely dead without the browser knowing.
      const away = this.hiddenSince === null ? 0 : Date.now() - this.hiddenSince;
      this.hiddenSince = null;
      if (away > 30_000 || !this.source || this.source.readyState === EventSource.CLOSED) this.reopen();
    });
  }

  stop() {
    // The window's listeners stay; a stopped stream ignores them.
    this.stopped = true;
    if (this.source) this.source.close();
    this.source = null;
    clearTimeout(this.flushTimer);
    clearTimeout(this.reopenTimer);
    clearTimeout(this.silenceTimer);
    this.pending = [];
  }

  /** Opens the stream, resuming after the last event seen (a new EventSource cannot set headers). */
  open() {
    if (this.stopped) return;
    if (this.source) this.source.close();
    clearTimeout(this.reopenTimer);
    const url = this.lastEventId === null ? this.path : `${this.path}?lastEventId=${encodeURIComponent(this.lastEventId)}`;
    // EventSource sends cookies only: a launch's session (a bearer token) is read with fetch.
    const token = bearerToken();
    const source = token ? new TokenEventSource(url, token) : new EventSource(url);
    this.source = source;
    this.heard();
    for (const kind of ['created', 'updated', 'deleted']) {
      source.addEventListener(kind, (event) => this.receive(kind, event));
    }
    source.addEventListener('heartbeat', () => this.heard());
    source.addEventListener('ready', (event) => {
      this.heard();
      this.lastEventId = event.lastEventId;
      this.retryDelay = 1000;
      this.setState('live');
    });
    source.addEventListener('reload', (event) => {
      this.heard();
      this.lastEventId = event.lastEventId;
      this.pending = [];
      this.handlers.onReload();
    });
    // The server is shutting down: reopen now (the proxy picks another instance) rather than after
    // the retry delay; the stream resumes from the last id.
    source.addEventListener('reconnect', () => {
      if (source !== this.source) return;
      this.setState('reconnecting');
      this.open();
    });
    source.addEventListener('error', () => {
      if (source !== this.source) return;
      this.setState('reconnecting');
      // CONNECTING: the browser retries by itself. CLOSED: it gave up (an error answer such as
      // 503), so try again later, waiting longer each time.
      if (source.readyState === EventSource.CLOSED) this.scheduleReopen();
    });
  }

  reopen() {
    if (typeof EventSource === 'undefined') return;
    this.open();
  }

  scheduleReopen() {
    clearTimeout(this.reopenTimer);
    this.reopenTimer = setTimeout(() => this.open(), this.retryDelay);
    this.retryDelay = Math.min(this.retryDelay * 2, 60_000);
  }

  /** Something arrived: the stream is alive. Silence past three heartbeats means it is not. */
  heard() {
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => { this.setState('reconnecting'); this.open(); }, SILENCE_MS);
  }

  receive(kind, event) {
    this.heard();
    this.lastEventId = event.lastEventId;
    let data;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    if (!data || typeof data.objectId !== 'string') return;
    this.pending.push(kind === 'deleted' ? { kind, objectId: data.objectId } : { kind, objectId: data.objectId, location: data });
    if (!this.flushTimer) this.flushTimer = setTimeout(() => this.flush(), BATCH_MS);
  }

  flush() {
    this.flushTimer = null;
    const changes = this.pending;
    this.pending = [];
    if (changes.length > 0) this.handlers.onChanges(changes);
  }

  setState(state) {
    if (state === this.state) return;
    this.state = state;
    this.handlers.onState(state);
  }
}
