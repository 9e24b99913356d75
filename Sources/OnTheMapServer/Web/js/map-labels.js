// Place names on the offline basemap: countries, then capitals, regions and other cities, each
// from its own zoom, in the reader's language where the basemap has the name, and never two
// overlapping: a name that would touch one already placed is left out. Laid out again after each
// move or zoom (hidden while a zoom animates, so zooming among thousands of pins stays smooth).
import { FRAME, inFrame } from './frames.js';

const L = window.L;

const MAX_LABELS = 250;
const fonts = {
  country: '600 13px system-ui, sans-serif',
  capital: '600 12px system-ui, sans-serif',
  region: 'italic 12px system-ui, sans-serif',
  city: '12px system-ui, sans-serif',
};
// Ahead in the queue for a place on the map.
const order = { country: 0, capital: 1, region: 2, city: 3 };

/** The basemap language for this reader: their first preferred language the basemap has. */
export function labelLanguage(available, preferred = navigator.languages || [navigator.language]) {
  for (const tag of preferred) {
    const lower = String(tag).toLowerCase();
    if (lower.startsWith('zh')) return /hant|tw|hk|mo/.test(lower) ? 'zht' : 'zh';
    const base = lower.split('-')[0];
    if (available.includes(base)) return base;
  }
  return 'en';
}

function fetchJSON(path) {
  return fetch(path).then((response) => (response.ok ? response.json() : []));
}

/** Whether a label's point is inside `bounds`, in the world copy the view shows or either neighbour. */
function viewTest(bounds) {
  const south = bounds.getSouth(), north = bounds.getNorth(), west = bounds.getWest(), east = bounds.getEast();
  const within = (lon) => lon >= west && lon <= east;
  return ({ lat, lon }) => lat >= south && lat <= north && (within(lon) || within(lon + 360) || within(lon - 360));
}

export class MapLabels {
  constructor(map, index) {
    this.map = map;
    this.index = index;
    this.language = labelLanguage(index.languages);
    this.countries = [];
    this.regions = null;
    this.cities = new Map();   // source (world or a detail square) → its cities
    this.elements = new Map(); // label key → its element
    this.pane = map.createPane('labels');
    this.pane.classList.add('map-labels');
    this.pane.setAttribute('aria-hidden', 'true');
    this.measure = document.createElement('canvas').getContext('2d');
    this.widths = new Map();    // kind and name → width in pixels, measured once
    this.sorted = null;         // the candidates of one zoom, until the names change: { zoom, labels }
    fetchJSON(`/basemap/labels/${this.language}/countries.json`).then((labels) => {
      this.countries = labels;
      this.changed();
    });
    map.on('zoomstart', () => { this.pane.hidden = true; });
    map.on('zoomend moveend resize', () => this.scheduleLayout());
  }

  addCities(source, cities) {
    if (this.cities.has(source)) return;
    this.cities.set(source, cities);
    this.changed();
  }

  /** New names arrived: the candidates are gathered again. */
  changed() {
    this.sorted = null;
    this.scheduleLayout();
  }

  /**
   * Lays the names out in their frame (frames.js), once however many moves and arrivals asked for
   * it: the frames before it redraw the basemap and the pins' clusters.
   */
  scheduleLayout() {
    if (this.scheduled) return;
    this.scheduled = true;
    inFrame(FRAME.labels, () => {
      this.scheduled = false;
      if (this.map._loaded) this.layout();
    });
  }

  /** Regions are wanted from the zoom where detail starts; loaded then, once. */
  wantRegions() {
    if (this.regions !== null) return;
    this.regions = [];
    fetchJSON(`/basemap/labels/${this.language}/regions.json`).then((labels) => {
      this.regions = labels;
      this.changed();
    });
  }

  /** Every label that may show at this zoom, most important first; kept while the zoom and the names stay. */
  candidates(zoom) {
    if (this.sorted?.zoom !== zoom) this.sorted = { zoom, labels: this.gather(zoom) };
    return this.sorted.labels;
  }

  gather(zoom) {
    const found = [];
    // Natural Earth's label zooms assume a desktop-sized world; a phone's whole world is a zoom
    // smaller, and the overlap test keeps the names apart anyway: countries one zoom early.
    for (const [lon, lat, minZoom, name] of this.countries) if (minZoom <= zoom + 1) found.push({ kind: 'country', lon, lat, minZoom, name });
    for (const cities of this.cities.values()) {
      for (const [lon, lat, minZoom, name, capital] of cities) {
        if (minZoom <= zoom) found.push({ kind: capital ? 'capital' : 'city', lon, lat, minZoom, name });
      }
    }
    if (zoom >= this.index.detailFromZoom) {
      this.wantRegions();
      for (const [lon, lat, minZoom, name] of this.regions) if (minZoom <= zoom) found.push({ kind: 'region', lon, lat, minZoom, name });
    }
    return found.sort((a, b) => order[a.kind] - order[b.kind] || a.minZoom - b.minZoom);
  }

  /** The label's box in container pixels: centred for areas, beside its dot for a city. */
  box(label, point) {
    const width = this.width(label);
    const height = 16;
    if (label.kind === 'country' || label.kind === 'region') {
      return { left: point.x - width / 2, top: point.y - height / 2, right: point.x + width / 2, bottom: point.y + height / 2 };
    }
    return { left: point.x - 4, top: point.y - height / 2, right: point.x + 8 + width, bottom: point.y + height / 2 };
  }

  width(label) {
    const key = `${label.kind}|${label.name}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      this.measure.font = fonts[label.kind];
      width = Math.ceil(this.measure.measureText(label.kind === 'country' ? label.name.toUpperCase() : label.name).width)
        + (label.kind === 'country' ? label.name.length : 0);
      this.widths.set(key, width);
    }
    return width;
  }

  layout() {
    const map = this.map;
    const zoom = map.getZoom();
    const size = map.getSize();
    const placed = [];
    const used = new Set();
    const inView = viewTest(map.getBounds());
    for (const label of this.candidates(zoom)) {
      if (placed.length >= MAX_LABELS) break;
      if (!inView(label)) continue;   // thousands of cities at a deep zoom: most are not projected at all
      const point = map.latLngToContainerPoint([label.lat, label.lon]);
      if (point.x < 0 || point.y < 0 || point.x > size.x || point.y > size.y) continue;
      const box = this.box(label, point);
      if (box.left < 2 || box.top < 2 || box.right > size.x - 2 || box.bottom > size.y - 2) continue;
      const padded = { left: box.left - 3, top: box.top - 2, right: box.right + 3, bottom: box.bottom + 2 };
      if (placed.some((other) => padded.left < other.right && other.left < padded.right && padded.top < other.bottom && other.top < padded.bottom)) continue;
      placed.push(box);
      const key = (label.key ??= `${label.kind}|${label.name}|${label.lon}|${label.lat}`);
      used.add(key);
      this.place(key, label, map.containerPointToLayerPoint([box.left, box.top]));
    }
    for (const [key, element] of this.elements) {
      if (!used.has(key)) {
        element.remove();
        this.elements.delete(key);
      }
    }
    this.pane.hidden = false;
    this.pane.dataset.labels = String(placed.length);
  }

  place(key, label, layerPoint) {
    let element = this.elements.get(key);
    if (!element) {
      element = L.DomUtil.create('div', `map-label map-label-${label.kind}`, this.pane);
      element.dataset.kind = label.kind;
      element.textContent = label.name;
      this.elements.set(key, element);
    }
    L.DomUtil.setPosition(element, layerPoint);
  }
}
