// Place names on the offline basemap: countries, then capitals, regions and other cities, each
// from its own zoom, in the reader's language where the basemap has the name, and never two
// overlapping: a name that would touch one already placed is left out. Laid out again after each
// move or zoom (hidden while a zoom animates, so zooming among thousands of pins stays smooth).
//
// A layout allocates next to nothing: each name becomes one object when it arrives, projected
// and ranked then, and each zoom's candidates are kept. Gathering them afresh per zoom made over
// half of what a zoom allocated, and the garbage collector's pauses that followed were the slow
// frames left while zooming among thousands of pins (BENCHMARKS.md).
import { projectPoint } from './basemap-drawing.js';
import { FRAME, inFrame } from './frames.js';
import { browserLanguages, currentLanguage, matchLanguage, onLanguageChange, rememberedLanguage } from './i18n.js';

const MAX_LABELS = 250;
const HEIGHT = 16;
const fonts = {
  country: '600 13px system-ui, sans-serif',
  capital: '600 12px system-ui, sans-serif',
  region: 'italic 12px system-ui, sans-serif',
  city: '12px system-ui, sans-serif',
};
// Ahead in the queue for a place on the map.
const order = { country: 0, capital: 1, region: 2, city: 3 };
const byImportance = (a, b) => order[a.kind] - order[b.kind] || a.fromZoom - b.fromZoom;
// Candidate lists kept for this many zooms (a pinch visits fractional ones).
const ZOOMS_KEPT = 12;

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

/**
 * The languages to name places in, first choice first: the page's language when the reader chose
 * it or their browser asked for it, then the browser's own (a Korean reader of the English page,
 * English only because there is no Korean catalogue, still gets Korean names).
 */
function labelPreferences() {
  const browser = browserLanguages();
  const page = currentLanguage();
  const asked = rememberedLanguage() === page || browser.some((tag) => matchLanguage(tag) === page);
  return asked ? [page, ...browser] : browser;
}

function fetchJSON(path) {
  return fetch(path).then((response) => (response.ok ? response.json() : []));
}

const scratch = new Float64Array(2);

/**
 * A name from a basemap row [lon, lat, minZoom, name, …]: where it is in the pixels of a
 * 256-pixel world, from which zoom it shows, and, once drawn, its element and position.
 */
function placeName(kind, row, name = row[3]) {
  projectPoint(row, scratch, 0);
  // Natural Earth's label zooms assume a desktop-sized world; a phone's whole world is a zoom
  // smaller, and the overlap test keeps the names apart anyway: countries one zoom early.
  const fromZoom = kind === 'country' ? row[2] - 1 : row[2];
  return { kind, name, fromZoom, x: scratch[0], y: scratch[1], width: -1, element: null, left: NaN, top: NaN, round: 0 };
}

export class MapLabels {
  constructor(map, index) {
    this.map = map;
    this.index = index;
    this.names = [];            // every name known, by importance once `ranked`
    this.ranked = true;
    this.byZoom = new Map();    // zoom → the names that may show at it, in rank order
    this.cityRows = new Map();  // source → its cities, named again in another language
    this.shown = new Set();     // names with an element on the map
    this.round = 0;             // layouts so far: a name drawn in an older one is taken off
    this.boxes = new Float64Array(MAX_LABELS * 4);   // the boxes placed in this layout
    this.pane = map.createPane('labels');
    this.pane.classList.add('map-labels');
    this.pane.setAttribute('aria-hidden', 'true');
    this.measure = document.createElement('canvas').getContext('2d');
    this.nameIn(labelLanguage(index.languages, labelPreferences()));
    // The reader switched the page's language: the places are named in it where the basemap can.
    onLanguageChange(() => this.nameIn(labelLanguage(index.languages, labelPreferences())));
    map.on('zoomstart', () => { this.pane.hidden = true; });
    map.on('zoomend moveend resize', () => this.scheduleLayout());
  }

  /** Names every place in `language` (a basemap language), again if it was named in another. */
  nameIn(language) {
    if (language === this.language) return;
    this.language = language;
    for (const label of this.shown) label.element.remove();
    this.shown.clear();
    this.names = [];
    this.regions = null;
    const asked = language;
    const stillAsked = () => this.language === asked;   // a later switch wins over a slow answer
    fetchJSON(`/basemap/labels/${language}/countries.json`).then((rows) => stillAsked() && this.add('country', rows));
    // A city's name in the reader's language where it has another (Copenhagen, not København),
    // by its point; cities are named once this has arrived, or failed to (offline, never seen).
    this.cityNames = fetchJSON(`/basemap/labels/${language}/cities.json`)
      .then((rows) => new Map(rows.map(([lon, lat, name]) => [`${lon},${lat}`, name])), () => new Map());
    for (const cities of this.cityRows.values()) this.nameCities(cities, stillAsked);
    this.changed();
  }

  addCities(source, cities) {
    if (this.cityRows.has(source)) return;
    this.cityRows.set(source, cities);
    const language = this.language;
    this.nameCities(cities, () => this.language === language);
  }

  nameCities(cities, stillAsked) {
    this.cityNames.then((names) => {
      if (!stillAsked()) return;
      for (const row of cities) this.names.push(placeName(row[4] ? 'capital' : 'city', row, names.get(`${row[0]},${row[1]}`)));
      this.changed();
    });
  }

  add(kind, rows) {
    for (const row of rows) this.names.push(placeName(kind, row));
    this.changed();
  }

  /** New names arrived: ranked again, the zooms' candidates gathered again. */
  changed() {
    this.ranked = false;
    this.byZoom.clear();
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
    const language = this.language;
    this.regions = fetchJSON(`/basemap/labels/${language}/regions.json`).then((rows) => this.language === language && this.add('region', rows));
  }

  /** Every name that may show at this zoom, most important first. */
  candidates(zoom) {
    const detail = zoom >= this.index.detailFromZoom;
    if (detail) this.wantRegions();
    let found = this.byZoom.get(zoom);
    if (found) return found;
    if (!this.ranked) {
      this.names.sort(byImportance);
      this.ranked = true;
    }
    if (this.byZoom.size >= ZOOMS_KEPT) this.byZoom.clear();
    found = this.names.filter((label) => label.fromZoom <= zoom && (detail || label.kind !== 'region'));
    this.byZoom.set(zoom, found);
    return found;
  }

  width(label) {
    if (label.width < 0) {
      this.measure.font = fonts[label.kind];
      label.width = Math.ceil(this.measure.measureText(label.kind === 'country' ? label.name.toUpperCase() : label.name).width)
        + (label.kind === 'country' ? label.name.length : 0);
    }
    return label.width;
  }

  /** Whether the box overlaps, with a margin, one of the first `count` boxes placed. */
  overlaps(left, top, right, bottom, count) {
    const boxes = this.boxes;
    for (let index = 0; index < count * 4; index += 4) {
      if (left - 3 < boxes[index + 2] && boxes[index] < right + 3 && top - 2 < boxes[index + 3] && boxes[index + 1] < bottom + 2) return true;
    }
    return false;
  }

  layout() {
    const map = this.map;
    const zoom = map.getZoom();
    const size = map.getSize();
    const scale = 2 ** zoom;
    const world = 256 * scale;
    // Leaflet's own arithmetic: a layer point is the rounded projection less the pixel origin; a
    // container point is a layer point moved by the map pane's offset.
    const origin = map.getPixelOrigin();
    const pane = map.layerPointToContainerPoint([0, 0]);
    const round = ++this.round;
    let placed = 0;
    for (const label of this.candidates(zoom)) {
      if (placed >= MAX_LABELS) break;
      const y = Math.round(label.y * scale) - origin.y + pane.y;
      if (y < 0 || y > size.y) continue;
      let x = Math.round(label.x * scale) - origin.x + pane.x;
      if (x < 0) x += world;            // the copy of the world that is in view
      else if (x > size.x) x -= world;
      if (x < 0 || x > size.x) continue;
      // Centred on an area's point; beside its dot for a city.
      const width = this.width(label);
      const area = label.kind === 'country' || label.kind === 'region';
      const left = area ? x - width / 2 : x - 4;
      const right = area ? x + width / 2 : x + 8 + width;
      const top = y - HEIGHT / 2;
      const bottom = y + HEIGHT / 2;
      if (left < 2 || top < 2 || right > size.x - 2 || bottom > size.y - 2) continue;
      if (this.overlaps(left, top, right, bottom, placed)) continue;
      const boxes = this.boxes;
      boxes[placed * 4] = left;
      boxes[placed * 4 + 1] = top;
      boxes[placed * 4 + 2] = right;
      boxes[placed * 4 + 3] = bottom;
      placed += 1;
      label.round = round;
      this.place(label, left - pane.x, top - pane.y);
    }
    for (const label of this.shown) {
      if (label.round === round) continue;
      label.element.remove();
      label.element = null;
      label.left = label.top = NaN;
      this.shown.delete(label);
    }
    this.pane.hidden = false;
    this.pane.dataset.labels = String(placed);
  }

  /** Puts the name's element at `left`, `top` (layer pixels), made the first time it shows. */
  place(label, left, top) {
    if (!label.element) {
      const element = document.createElement('div');
      element.className = `map-label map-label-${label.kind}`;
      element.dataset.kind = label.kind;
      element.textContent = label.name;
      this.pane.append(element);
      label.element = element;
      this.shown.add(label);
    }
    if (label.left === left && label.top === top) return;
    label.left = left;
    label.top = top;
    label.element.style.transform = `translate3d(${left}px, ${top}px, 0)`;
  }
}
