// A Server-Sent Events stream read with fetch, for a page whose session is a bearer token (an LTI
// launch in a platform's frame, launch-session.js): the browser's EventSource cannot send an
// Authorization header. It offers what live-updates.js uses of EventSource: `addEventListener`
// for named events, `readyState`, `close()`, and events with `data` and `lastEventId`. It does not
// reconnect by itself: when the stream ends or fails it is CLOSED and says `error`, and
// live-updates.js opens it again after the last event seen, as it does when EventSource gives up.

export class TokenEventSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;

  constructor(url, token) {
    this.readyState = TokenEventSource.CONNECTING;
    this.listeners = new Map();
    this.lastEventId = '';
    this.aborter = new AbortController();
    this.read(url, token);
  }

  addEventListener(type, listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    this.listeners.get(type).push(listener);
  }

  close() {
    this.readyState = TokenEventSource.CLOSED;
    this.aborter.abort();
  }

  dispatch(type, fields = {}) {
    for (const listener of this.listeners.get(type) || []) listener({ type, ...fields });
  }

  async read(url, token) {
    try {
      const response = await fetch(url, {
        headers: { Accept: 'text/event-stream', Authorization: `Bearer ${token}` },
        cache: 'no-store',
        signal: this.aborter.signal,
      });
      if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
      this.readyState = TokenEventSource.OPEN;
      this.dispatch('open');
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        // An event ends at a blank line (any of the three line endings the format allows).
        const blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/);
        buffer = blocks.pop();
        for (const block of blocks) this.event(block);
      }
      throw new Error('stream ended');
    } catch {
      if (this.readyState === TokenEventSource.CLOSED) return;
      this.readyState = TokenEventSource.CLOSED;
      this.dispatch('error');
    }
  }

  /** One event's lines (the format of the HTML standard's "server-sent events"). */
  event(block) {
    let type = 'message';
    const data = [];
    for (const line of block.split(/\r\n|\n|\r/)) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    }
    // As EventSource: an event without data is not dispatched.
    if (data.length === 0) return;
    if (this.readyState === TokenEventSource.CLOSED) return;
    this.dispatch(type, { data: data.join('\n'), lastEventId: this.lastEventId });
  }
}
