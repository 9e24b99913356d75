// A Leaflet map drawn from the committed Natural Earth basemap, loaded by zoom and place: the
// world at a glance first (about 50 KB), then 15° squares of detail for what the view's tiles
// meet from zoom 4, drawn into canvas tiles (basemap-tiles.js). Place names come from
// map-labels.js. The operator's online tiles go on top only when configured. Works offline (the
// service worker keeps what was seen).
import { clientConfig } from './api.js';
import { squaresOf } from './basemap-drawing.js';
import { fetchJSON } from './basemap-sources.js';
import { FRAME, inFrame } from './frames.js';
import { onLanguageChange, t, translatePage } from './i18n.js';
import { tileDrawer } from './basemap-tiles.js';
import { giveCanvas, takeCanvas } from './tile-canvases.js';
import { MapLabels } from './map-labels.js';

const L = window.L;
let shared = null;

const NATURAL_EARTH = '<a href="https://www.naturalearthdata.com/" target="_blank" rel="noopener noreferrer">Natural Earth</a>';
const escapeHTML = (text) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** "Made with Natural Earth" in the page's language, as the attribution control's HTML. */
function naturalEarthCredit() {
  const slot = '\u0000';
  return t('map.madeWith', { source: slot }).split(slot).map(escapeHTML).join(NATURAL_EARTH);
}

/**
 * Leaflet's own words on `map` in the page's language, now and after each change: the zoom
 * buttons' names (through the static page's attributes) and the credits.
 */
function translateControls(map) {
  if (map.zoomControl) {
    const container = map.zoomControl.getContainer();
    for (const [selector, key] of [['.leaflet-control-zoom-in', 'map.zoomIn'], ['.leaflet-control-zoom-out', 'map.zoomOut']]) {
      const button = container.querySelector(selector);
      if (button) button.setAttribute('data-i18n-attr', `title:${key}; aria-label:${key}`);
    }
    translatePage(container);
  }
  let credit = naturalEarthCredit();
  map.attributionControl.addAttribution(credit);
  onLanguageChange(() => {
    map.attributionControl.removeAttribution(credit);
    credit = naturalEarthCredit();
    map.attributionControl.addAttribution(credit);
  });
}

/** What every map of the page shares, fetched once: the index, the world, the tile settings. */
export function loadMapData() {
  shared ??= {
    index: fetchJSON('/basemap/index.json'),
    world: fetchJSON('/basemap/world.json'),
    settings: clientConfig().catch(() => ({ tiles: null })),
  };
  return Promise.all([shared.index, shared.world, shared.settings]);
}

/**
 * The basemap as canvas tiles: the world below zoom 4, the detail squares a tile meets from
 * zoom 4, drawn a few per frame (basemap-tiles.js), so no frame of a zoom or a pan waits for
 * them (Leaflet keeps showing the last zoom's tiles, scaled, until the new ones are drawn). A
 * tile whose square has not arrived yet shows the world's coarser shapes, and is drawn again
 * when it does: the map is never blank while detail loads.
 */
const BasemapLayer = L.GridLayer.extend({
  initialize(index, world, labels, options) {
    L.GridLayer.prototype.initialize.call(this, options);
    this.index = index;
    this.labels = labels;
    this.waitingFor = new Set();   // squares some tile of this map showed the world in place of
    this.redrawing = new Set();    // tiles being drawn again with a square that arrived
    this.tilesLoading = false;     // Leaflet's own: tiles in view not drawn yet
    this.drawer = tileDrawer(index, world);
    labels.addCities('world', world.cities);
    this.on('tileunload', ({ tile }) => {
      this.drawer.cancel(tile);
      this.redrawing.delete(tile);
      giveCanvas(tile);
    });
    this.on('loading load', ({ type }) => {
      this.tilesLoading = type === 'loading';
      this.markState();
    });
  },

  onAdd(map) {
    this.drawer.listeners.add(this);
    L.GridLayer.prototype.onAdd.call(this, map);
  },

  onRemove(map) {
    this.drawer.listeners.delete(this);
    L.GridLayer.prototype.onRemove.call(this, map);
  },

  // No tile is made inside a zoom's or a move's own events: Leaflet would make the new zoom's
  // tiles as the zoom animation starts and again in the task that ends it. They are made once, in
  // the tiles' frame (the pins' clusters and the names take the frames after it, frames.js).
  getEvents() {
    const events = L.GridLayer.prototype.getEvents.call(this);
    return {
      ...events,
      zoom: (event) => this.nextFrame('zoom', () => events.zoom.call(this, event)),
      moveend: () => this.nextFrame('moveend', () => events.moveend.call(this)),
      ...(events.move && { move: () => this.nextFrame('move', () => events.move.call(this)) }),
      ...(events.zoomanim && { zoomanim: (event) => events.zoomanim.call(this, { ...event, noUpdate: true }) }),
      zoomstart: () => {
        this.drawer.zoomStarted();
        this.zooming = true;
        this.markState();
      },
      zoomend: () => {
        this.drawer.zoomEnded();
        this.zooming = false;
        this.markState();
      },
    };
  },

  /** Runs `work` in the tiles' frame, once however often it is asked for before then, in order. */
  nextFrame(key, work) {
    const first = !this.deferred;
    this.deferred ??= new Map();
    this.deferred.set(key, work);
    if (!first) return;
    this.markState();
    inFrame(FRAME.tiles, () => {
      const deferred = this.deferred;
      this.deferred = null;
      if (this._map) for (const run of deferred.values()) run();
      this.markState();
    });
  },

  createTile(coords, done) {
    const canvas = takeCanvas(window.devicePixelRatio || 1);
    this.drawTile(canvas, coords, () => done(null, canvas));
    return canvas;
  },

  drawTile(canvas, coords, done) {
    this.drawer.draw(canvas, coords, {
      done,
      onMissing: (names) => names.forEach((name) => this.waitingFor.add(name)),
    });
  },

  /** A square arrived: its cities are named, and the tiles that showed the world in its place are drawn again. */
  squareArrived(name, cities) {
    this.labels.addCities(name, cities);
    if (!this.waitingFor.delete(name)) return;
    this.redrawTiles((coords) => coords.z >= this.index.detailFromZoom && squaresOf(coords, this.index).includes(name));
  },

  /** The theme changed: every tile is drawn again in its colours, in place. */
  themeChanged() {
    this.redrawTiles(() => true);
  },

  /** Draws again, in place, the tiles whose coordinates pass `which`. */
  redrawTiles(which) {
    for (const tile of Object.values(this._tiles || {})) {
      const { el } = tile;
      const coords = this._wrapCoords(tile.coords);   // as createTile was given them
      if (!which(coords)) continue;
      this.redrawing.add(el);
      this.drawTile(el, coords, () => {
        this.redrawing.delete(el);
        this.markState();
      });
    }
    this.markState();
  },

  squareFailed(name) {
    this.waitingFor.delete(name);   // offline: the world's shapes stay until a tile asks again
    this.markState();
  },

  /**
   * `data-basemap` on the map: "loading" from a zoom or a move until its tiles are drawn, and
   * while detail is on its way or being drawn in.
   */
  markState() {
    if (!this._map) return;
    const busy = this.zooming || this.tilesLoading || Boolean(this.deferred) || this.waitingFor.size > 0 || this.redrawing.size > 0;
    this._map.getContainer().dataset.basemap = busy ? 'loading' : 'ready';
  },
});

/**
 * Creates a map in `element`. Options: keyboard and touch on, zoom limited to what the basemap
 * can show (deeper with tiles). Resolves once the world is drawn; detail follows as it loads.
 */
export async function createMap(element, { zoomControl = true } = {}) {
  element.dataset.basemap = 'loading';
  const [index, world, config] = await loadMapData();
  const tiles = config && config.tiles;
  const map = L.map(element, {
    zoomControl,
    minZoom: 0,
    zoomSnap: 0.25,
    maxZoom: tiles ? 18 : 10,
    worldCopyJump: true,
    maxBounds: [[-89, -540], [89, 540]],
    attributionControl: true,
  }).setView([25, 0], 2);
  const labels = new MapLabels(map, index);
  map.basemap = new BasemapLayer(index, world, labels, { zIndex: 0, maxZoom: map.getMaxZoom() }).addTo(map);
  // Credits open in a new tab: following one must not navigate away from the app.
  map.attributionControl.setPrefix('<a href="https://leafletjs.com" target="_blank" rel="noopener noreferrer">Leaflet</a>');
  translateControls(map);
  if (tiles) L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 18, zIndex: 1 }).addTo(map);
  map.hasTiles = Boolean(tiles);
  return map;
}
