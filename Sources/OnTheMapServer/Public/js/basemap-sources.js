// The shapes a basemap tile is drawn from: the world below the detail zoom; from there, the detail
// squares the tile meets, each fetched, parsed and projected once (by a worker where one can run),
// with the world's coarser shapes in place of a square still on its way.
import { project, squaresOf } from './basemap-drawing.js';

/** A basemap file, parsed. */
export function fetchJSON(path) {
  return fetch(path).then((response) => {
    if (!response.ok) throw new Error(`basemap ${path}: ${response.status}`);
    return response.json();
  });
}

// One resource entry per square (each is asked for once): room for every square of the world.
performance.setResourceTimingBufferSize?.(1000);

/** A detail square: { cities, shapes (projected), bytes (what the network carried, 0 from a cache) }. */
export async function fetchSquare(name) {
  const path = `/basemap/detail/${name}.json`;
  const data = await fetchJSON(path);
  const entry = performance.getEntriesByType('resource').findLast((candidate) => candidate.name.endsWith(path));
  return { cities: data.cities, shapes: project(data), bytes: entry ? entry.transferSize : 0 };
}

export class BasemapSources {
  /**
   * `loadSquare(name)` resolves to a fetchSquare answer. `onSquare(name, square)` is told of each
   * square that arrives, and `onSquare(name, null)` of one that could not be fetched (it is asked
   * for again when a tile next needs it).
   */
  constructor(index, world, loadSquare, onSquare) {
    this.index = index;
    this.world = project(world);
    this.loadSquare = loadSquare;
    this.onSquare = onSquare;
    this.squares = new Map();   // name → projected shapes, once arrived
    this.loading = new Set();
  }

  /** What a tile draws, bottom first, and the squares it still lacks (now being fetched). */
  sourcesFor(coords) {
    if (coords.z < this.index.detailFromZoom) return { shapes: [this.world], missing: [] };
    const shapes = [];
    const missing = [];
    for (const name of squaresOf(coords, this.index)) {
      if (this.squares.has(name)) shapes.push(this.squares.get(name));
      else {
        missing.push(name);
        this.load(name);
      }
    }
    return { shapes: missing.length > 0 ? [this.world, ...shapes] : shapes, missing };
  }

  load(name) {
    if (this.loading.has(name)) return;
    this.loading.add(name);
    this.loadSquare(name).then((square) => {
      this.squares.set(name, square.shapes);
      this.onSquare(name, square);
    }, () => this.onSquare(name, null)).finally(() => this.loading.delete(name));
  }
}
