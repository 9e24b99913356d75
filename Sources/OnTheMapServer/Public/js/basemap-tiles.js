// Draws the basemap's tiles, one drawer for every map of the page: a few per frame, none while a
// map's zoom animates and one per frame just after, so drawing never holds up a frame of a zoom
// (a canvas is painted after its script has run: a frame's budget must leave room for that).
// The detail squares are fetched, parsed and projected by basemap-worker.js where a worker can
// run. Maps listen for the squares that arrive: their names go on the map and the tiles that
// showed the world in their place are drawn again.
import { PALETTES, drawTile } from './basemap-drawing.js';
import { currentTheme, onThemeChange } from './theme.js';
import { BasemapSources, fetchSquare } from './basemap-sources.js';

// Script time for tiles in one frame, and at most this many tiles: fewer while the frames after
// a zoom redraw the pins' clusters and the names.
const FRAME_BUDGET_MS = 6;
const TILES_PER_FRAME = 4;
const TILES_PER_FRAME_AFTER_ZOOM = 1;
const AFTER_ZOOM_MS = 600;

/** Loads squares in a worker; on the page if the worker cannot start or fails. */
class SquareLoader {
  constructor() {
    this.waiting = new Map();   // name → { resolve, reject }
    try {
      this.worker = typeof Worker === 'function' ? new Worker('/js/basemap-worker.js', { type: 'module' }) : null;
    } catch {
      this.worker = null;
    }
    if (!this.worker) return;
    this.worker.onmessage = ({ data }) => {
      const callbacks = this.waiting.get(data.name);
      this.waiting.delete(data.name);
      if (data.error) callbacks?.reject(new Error(data.error));
      else callbacks?.resolve(data);
    };
    this.worker.onerror = () => {
      this.worker.terminate();
      this.worker = null;
      for (const [name, callbacks] of this.waiting) fetchSquare(name).then(callbacks.resolve, callbacks.reject);
      this.waiting.clear();
    };
  }

  load(name) {
    if (!this.worker) return fetchSquare(name);
    return new Promise((resolve, reject) => {
      this.waiting.set(name, { resolve, reject });
      this.worker.postMessage({ name });
    });
  }
}

class TileDrawer {
  constructor(index, world) {
    const loader = new SquareLoader();
    this.sources = new BasemapSources(index, world, (name) => loader.load(name), (name, square) => this.announce(name, square));
    this.listeners = new Set();   // { squareArrived(name, cities), squareFailed(name), themeChanged() }
    this.queue = [];              // { canvas, coords, done, onMissing }
    this.scheduled = false;
    this.zooming = 0;             // maps whose zoom is animating
    this.zoomEndedAt = -Infinity;
    onThemeChange(() => {
      for (const listener of this.listeners) listener.themeChanged();
    });
  }

  /** Draws `canvas`, the tile at `coords`; then `done()`, and `onMissing(names)` for squares still to come. */
  draw(canvas, coords, { done, onMissing }) {
    const queued = this.queue.find((job) => job.canvas === canvas);
    if (queued) {
      // Not drawn yet: drawn once, with what is known by then, and both callers told.
      const first = queued.done;
      queued.done = () => {
        first?.();
        done?.();
      };
      queued.onMissing = onMissing;
      return;
    }
    this.queue.push({ canvas, coords, done, onMissing });
    this.schedule();
  }

  /** A tile let go before it was drawn is not drawn. */
  cancel(canvas) {
    this.queue = this.queue.filter((job) => job.canvas !== canvas);
  }

  zoomStarted() { this.zooming += 1; }

  zoomEnded() {
    this.zooming = Math.max(0, this.zooming - 1);
    this.zoomEndedAt = performance.now();
    this.schedule();
  }

  schedule() {
    if (this.scheduled || this.zooming > 0 || this.queue.length === 0) return;
    this.scheduled = true;
    requestAnimationFrame(() => this.drain());
  }

  drain() {
    this.scheduled = false;
    if (this.zooming > 0) return;
    const start = performance.now();
    const tiles = start - this.zoomEndedAt < AFTER_ZOOM_MS ? TILES_PER_FRAME_AFTER_ZOOM : TILES_PER_FRAME;
    for (let drawn = 0; drawn < tiles && this.queue.length > 0 && performance.now() - start < FRAME_BUDGET_MS; drawn += 1) {
      const { canvas, coords, done, onMissing } = this.queue.shift();
      const { shapes, missing } = this.sources.sourcesFor(coords);
      drawTile(canvas, coords, shapes, window.devicePixelRatio || 1, PALETTES[currentTheme()]);
      if (missing.length > 0) onMissing?.(missing);
      done?.();
    }
    this.schedule();
  }

  /** A performance mark per square that arrives, with its bytes: how a slow first visit is measured. */
  announce(name, square) {
    if (square) performance.mark('basemap-square', { detail: { name, bytes: square.bytes } });
    for (const listener of this.listeners) {
      if (square) listener.squareArrived(name, square.cities);
      else listener.squareFailed(name);
    }
  }
}

let shared = null;

/** The page's tile drawer, made with its first map. */
export function tileDrawer(index, world) {
  shared ??= new TileDrawer(index, world);
  return shared;
}
