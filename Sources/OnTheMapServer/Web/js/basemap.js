// A Leaflet map drawn from the committed Natural Earth basemap (land, country and state
// borders), with the operator's online tiles on top only when configured. Works offline.
import { clientConfig } from './api.js';

const L = window.L;
let basemapData = null;
let settings = null;

const NATURAL_EARTH = 'Made with <a href="https://www.naturalearthdata.com/" target="_blank" rel="noopener noreferrer">Natural Earth</a>';

/** Loads the basemap and the tile settings once; later maps reuse them. */
export function loadMapData() {
  basemapData ??= fetch('/basemap/natural-earth.json').then((response) => {
    if (!response.ok) throw new Error(`basemap: ${response.status}`);
    return response.json();
  });
  settings ??= clientConfig().catch(() => ({ tiles: null }));
  return Promise.all([basemapData, settings]);
}

const styles = {
  land: { stroke: false, fillColor: '#f4f1e8', fillOpacity: 1, interactive: false },
  border: { color: '#8f8577', weight: 1, opacity: 0.9, interactive: false },
  admin1: { color: '#b9ad9b', weight: 0.6, opacity: 0.9, dashArray: '3 3', interactive: false },
};

/**
 * Creates a map in `element`. Options: keyboard and touch on, zoom limited to what the basemap
 * can show (deeper with tiles). Resolves once the basemap is drawn.
 */
export async function createMap(element, { zoomControl = true } = {}) {
  const [data, config] = await loadMapData();
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
  const renderer = L.canvas({ padding: 0.5 });
  const layers = {};
  for (const feature of data.features) {
    const kind = feature.properties.kind;
    layers[kind] = L.geoJSON(feature, { style: styles[kind], renderer, interactive: false });
  }
  layers.land.addTo(map);
  layers.border.addTo(map);
  // State lines clutter a world view; show them once a region fills the screen.
  const toggleStates = () => {
    if (map.getZoom() >= 4) layers.admin1.addTo(map);
    else layers.admin1.remove();
  };
  map.on('zoomend', toggleStates);
  toggleStates();
  // Credits open in a new tab: following one must not navigate away from the app.
  map.attributionControl.setPrefix('<a href="https://leafletjs.com" target="_blank" rel="noopener noreferrer">Leaflet</a>');
  map.attributionControl.addAttribution(NATURAL_EARTH);
  if (tiles) L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 18 }).addTo(map);
  map.hasTiles = Boolean(tiles);
  return map;
}
