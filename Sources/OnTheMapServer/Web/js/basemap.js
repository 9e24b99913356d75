// A Leaflet map drawn from the committed Natural Earth basemap, loaded by zoom and place: the
// world at a glance first (about 50 KB), then 15° squares of detail for what the view shows from
// zoom 4. Place names come from map-labels.js. The operator's online tiles go on top only when
// configured. Works offline (the service worker keeps what was seen).
import { clientConfig } from './api.js';
import { MapLabels } from './map-labels.js';

const L = window.L;
let shared = null;

const NATURAL_EARTH = 'Made with <a href="https://www.naturalearthdata.com/" target="_blank" rel="noopener noreferrer">Natural Earth</a>';

const styles = {
  land: { stroke: false, fillColor: '#f4f1e8', fillOpacity: 1, interactive: false },
  border: { color: '#8f8577', weight: 1, opacity: 0.9, interactive: false },
  admin1: { color: '#b9ad9b', weight: 0.6, opacity: 0.9, dashArray: '3 3', interactive: false },
  river: { color: '#9ccbe8', weight: 1, opacity: 0.9, interactive: false },
};

function fetchJSON(path) {
  return fetch(path).then((response) => {
    if (!response.ok) throw new Error(`basemap ${path}: ${response.status}`);
    return response.json();
  });
}

/** What every map of the page shares, fetched once: the index, the world, the tile settings. */
export function loadMapData() {
  shared ??= {
    index: fetchJSON('/basemap/index.json'),
    world: fetchJSON('/basemap/world.json'),
    settings: clientConfig().catch(() => ({ tiles: null })),
    detail: new Map(),
  };
  return Promise.all([shared.index, shared.world, shared.settings]);
}

/** A detail square's data, fetched once for all maps. */
function detailTile(name) {
  if (!shared.detail.has(name)) {
    const request = fetchJSON(`/basemap/detail/${name}.json`);
    request.catch(() => shared.detail.delete(name));   // offline: try again later
    shared.detail.set(name, request);
  }
  return shared.detail.get(name);
}

/** Leaflet layers for one geometry file, by kind. */
function layersOf(data, renderer) {
  const layers = {};
  for (const feature of data.features) layers[feature.properties.kind] = layerOf(feature, renderer);
  return layers;
}

function layerOf(feature, renderer) {
  return L.geoJSON(feature, { style: styles[feature.properties.kind], renderer, interactive: false });
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** The same, one kind per frame: a square of detail never holds up a frame of a zoom or a pan. */
async function layersOfInSteps(data, renderer) {
  const layers = {};
  for (const feature of data.features) {
    await nextFrame();
    layers[feature.properties.kind] = layerOf(feature, renderer);
  }
  return layers;
}

/**
 * Draws the world below zoom 4 and the detail squares in view from zoom 4; a square not yet
 * loaded shows the world's coarser shapes, so the map is never blank while it loads.
 */
class Basemap {
  constructor(map, index, world, labels) {
    this.map = map;
    this.index = index;
    this.labels = labels;
    // Little drawn beyond the view: a smaller canvas to repaint and to scale while zooming.
    this.renderer = L.canvas({ padding: 0.1 });
    this.world = layersOf(world, this.renderer);
    this.available = new Set(index.tiles);
    this.shown = new Map();   // tile name → its layers, on the map
    this.loaded = new Map();  // tile name → its layers
    this.pending = 0;
    labels.addCities('world', world.cities);
    map.on('moveend zoomend', () => this.update());
    this.update();
  }

  /** The names of the detail squares the view (and a margin) covers. */
  tilesInView() {
    const bounds = this.map.getBounds().pad(0.2);
    const size = this.index.tileDegrees;
    const names = [];
    const west = Math.floor((Math.max(bounds.getWest(), -180) + 180) / size);
    const east = Math.floor((Math.min(bounds.getEast(), 179.999) + 180) / size);
    const north = Math.floor((90 - Math.min(bounds.getNorth(), 89.999)) / size);
    const south = Math.floor((90 - Math.max(bounds.getSouth(), -89.999)) / size);
    for (let x = west; x <= east; x += 1) {
      for (let y = north; y <= south; y += 1) {
        const name = `${x}-${y}`;
        if (this.available.has(name)) names.push(name);
      }
    }
    return names;
  }

  update() {
    const detailed = this.map.getZoom() >= this.index.detailFromZoom;
    const wanted = detailed ? this.tilesInView() : [];
    for (const [name, layers] of this.shown) {
      if (!wanted.includes(name)) {
        Object.values(layers).forEach((layer) => layer.remove());
        this.shown.delete(name);
      }
    }
    for (const name of wanted) {
      if (this.loaded.has(name)) this.show(name);
      else this.load(name);
    }
    this.showWorld(!detailed || wanted.some((name) => !this.shown.has(name)));
    this.map.getContainer().dataset.basemap = this.pending > 0 ? 'loading' : 'ready';
  }

  load(name) {
    if (this.loading?.has(name)) return;
    (this.loading ??= new Set()).add(name);
    this.pending += 1;
    detailTile(name).then(async (data) => {
      this.loaded.set(name, await layersOfInSteps(data, this.renderer));
      this.labels.addCities(name, data.cities);
    }).catch(() => {}).finally(() => {
      this.loading.delete(name);
      this.pending -= 1;
      this.update();
    });
  }

  show(name) {
    if (this.shown.has(name)) return;
    const layers = this.loaded.get(name);
    for (const kind of ['land', 'river', 'admin1', 'border']) layers[kind]?.addTo(this.map);
    this.shown.set(name, layers);
  }

  /** The world's shapes: alone below zoom 4; under the detail while any square in view is missing. */
  showWorld(visible) {
    for (const kind of ['land', 'river', 'border']) {
      const layer = this.world[kind];
      if (!layer) continue;
      if (visible && !this.map.hasLayer(layer)) layer.addTo(this.map);
      if (!visible && this.map.hasLayer(layer)) layer.remove();
    }
    // Coarse land must stay beneath detail drawn since: bring the detail back on top.
    if (visible) for (const layers of this.shown.values()) Object.values(layers).forEach((layer) => layer.bringToFront());
  }
}

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
  map.basemap = new Basemap(map, index, world, labels);
  // Credits open in a new tab: following one must not navigate away from the app.
  map.attributionControl.setPrefix('<a href="https://leafletjs.com" target="_blank" rel="noopener noreferrer">Leaflet</a>');
  map.attributionControl.addAttribution(NATURAL_EARTH);
  if (tiles) L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 18 }).addTo(map);
  map.hasTiles = Boolean(tiles);
  return map;
}
