// Drawing the basemap's shapes into canvas tiles, on the page or in a worker (no DOM here). A
// geometry file is projected once (Web Mercator, in the pixels of a 256-pixel world at zoom 0)
// into parts with boxes; a tile then draws only the parts its box meets, scaled to its zoom, with
// each kind as a single path.

const WORLD = 256;
const MAX_LATITUDE = 85.0511287798;

/** The shapes' colours in each theme (the sea is the map's CSS background, --sea). */
export const PALETTES = {
  light: {
    // (Each detail square's land overlaps its neighbours' a little: no hairline where they meet.)
    land: { fill: '#f4f1e8' },
    river: { stroke: '#9ccbe8', width: 1 },
    admin1: { stroke: '#b9ad9b', width: 0.6, dash: [3, 3] },
    border: { stroke: 'rgba(143, 133, 119, 0.9)', width: 1 },
  },
  dark: {
    land: { fill: '#2e3843' },
    river: { stroke: '#2f5b78', width: 1 },
    admin1: { stroke: '#4f5b68', width: 0.6, dash: [3, 3] },
    border: { stroke: 'rgba(150, 163, 177, 0.85)', width: 1 },
  },
};
/** Bottom to top. */
export const KINDS = ['land', 'river', 'admin1', 'border'];

/**
 * Web Mercator, in the pixels of a 256-pixel world (Leaflet's projection at zoom 0): [x, y] into
 * `into` at `offset`. `point` starts [lon, lat]; what follows is ignored.
 */
export function projectPoint([lon, lat], into, offset) {
  const sin = Math.sin((Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat)) * Math.PI) / 180);
  into[offset] = ((lon + 180) / 360) * WORLD;
  into[offset + 1] = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * WORLD;
}

/**
 * A geometry file's features as kind → parts, a polygon or a line each, in four typed arrays:
 * `points` (x, y pairs), `rings` (where each ring starts in `points`, and one more for the end),
 * `parts` (where each part starts in `rings`, and one more) and `boxes` (west, north, east, south
 * per part). Arrays, not an object per part and ring: a detail square has thousands of parts,
 * and objects would have to be made again on the page from a worker's message and traced by
 * every garbage collection; a worker hands buffers over without a copy.
 */
export function project(data) {
  const shapes = {};
  for (const feature of data.features) {
    const { type, coordinates } = feature.geometry;
    const partsOf = type === 'MultiPolygon' ? coordinates
      : type === 'Polygon' ? [coordinates]
        : type === 'MultiLineString' ? coordinates.map((line) => [line]) : [[coordinates]];
    let ringCount = 0;
    let pointCount = 0;
    for (const part of partsOf) {
      ringCount += part.length;
      for (const ring of part) pointCount += ring.length;
    }
    const points = new Float64Array(pointCount * 2);
    const rings = new Uint32Array(ringCount + 1);
    const parts = new Uint32Array(partsOf.length + 1);
    const boxes = new Float64Array(partsOf.length * 4);
    let ring = 0;
    let offset = 0;
    partsOf.forEach((part, index) => {
      parts[index] = ring;
      const box = index * 4;
      boxes[box] = boxes[box + 1] = Infinity;
      boxes[box + 2] = boxes[box + 3] = -Infinity;
      for (const coordinates of part) {
        rings[ring] = offset;
        ring += 1;
        for (const point of coordinates) {
          projectPoint(point, points, offset);
          boxes[box] = Math.min(boxes[box], points[offset]);
          boxes[box + 1] = Math.min(boxes[box + 1], points[offset + 1]);
          boxes[box + 2] = Math.max(boxes[box + 2], points[offset]);
          boxes[box + 3] = Math.max(boxes[box + 3], points[offset + 1]);
          offset += 2;
        }
      }
    });
    rings[ringCount] = offset;
    parts[partsOf.length] = ringCount;
    shapes[feature.properties.kind] = { points, rings, parts, boxes };
  }
  return shapes;
}

/** The buffers under projected shapes, to hand them to another thread. */
export function buffersOf(shapes) {
  return Object.values(shapes).flatMap(({ points, rings, parts, boxes }) => [points.buffer, rings.buffer, parts.buffer, boxes.buffer]);
}

/** Adds the rings of `shapes` (one kind's) that meet the tile to the context's path, in tile pixels. */
function tracePath(context, { points, rings, parts, boxes }, scale, originX, originY, closed) {
  // The tile's box at zoom 0, with a pixel's margin for line widths.
  const margin = 2 / scale;
  const west = originX / scale - margin;
  const north = originY / scale - margin;
  const east = (originX + WORLD) / scale + margin;
  const south = (originY + WORLD) / scale + margin;
  for (let part = 0; part < parts.length - 1; part += 1) {
    const box = part * 4;
    if (boxes[box] > east || boxes[box + 2] < west || boxes[box + 1] > south || boxes[box + 3] < north) continue;
    for (let ring = parts[part]; ring < parts[part + 1]; ring += 1) {
      const start = rings[ring];
      const end = rings[ring + 1] - 2;   // the ring's last point
      if (end < start) continue;
      let lastX = points[start] * scale - originX;
      let lastY = points[start + 1] * scale - originY;
      context.moveTo(lastX, lastY);
      for (let index = start + 2; index <= end; index += 2) {
        const x = points[index] * scale - originX;
        const y = points[index + 1] * scale - originY;
        // Points closer than half a pixel to the last one drawn add nothing but work.
        if (index < end && Math.abs(x - lastX) + Math.abs(y - lastY) < 0.5) continue;
        context.lineTo(x, y);
        lastX = x;
        lastY = y;
      }
      if (closed) context.closePath();
    }
  }
}

/**
 * Draws the shapes of every source in `sources` (projected files, bottom first) into a tile's
 * canvas (or OffscreenCanvas): the tile at `coords` (Leaflet tile numbers), `ratio` canvas pixels
 * per CSS pixel, in the colours of `palette` (one of PALETTES).
 */
export function drawTile(canvas, coords, sources, ratio, palette) {
  const context = canvas.getContext('2d');
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, WORLD, WORLD);
  const scale = 2 ** coords.z;
  const originX = coords.x * WORLD;
  const originY = coords.y * WORLD;
  for (const shapes of sources) {
    for (const kind of KINDS) {
      if (!shapes[kind]) continue;
      const style = palette[kind];
      context.beginPath();
      tracePath(context, shapes[kind], scale, originX, originY, Boolean(style.fill));
      if (style.fill) {
        context.fillStyle = style.fill;
        context.fill('evenodd');
      }
      if (style.stroke) {
        context.strokeStyle = style.stroke;
        context.lineWidth = style.width;
        context.setLineDash(style.dash || []);
        context.lineJoin = 'round';
        context.stroke();
      }
    }
  }
}

/** The tile's box in degrees: [west, south, east, north]. */
export function tileDegrees(coords) {
  const scale = 2 ** coords.z;
  const longitude = (x) => (x / scale) * 360 - 180;
  const latitude = (y) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / scale))) * 180) / Math.PI;
  return [longitude(coords.x), latitude(coords.y + 1), longitude(coords.x + 1), latitude(coords.y)];
}

/** The names of the detail squares (index.tileDegrees wide, numbered from 180° W, 90° N) a tile meets. */
export function squaresOf(coords, index) {
  const [west, south, east, north] = tileDegrees(coords);
  const size = index.tileDegrees;
  const names = [];
  const column = (longitude) => Math.floor((Math.max(-180, Math.min(179.999, longitude)) + 180) / size);
  const row = (latitude) => Math.floor((90 - Math.max(-89.999, Math.min(89.999, latitude))) / size);
  for (let x = column(west); x <= column(east - 1e-9); x += 1) {
    for (let y = row(north); y <= row(south + 1e-9); y += 1) names.push(`${x}-${y}`);
  }
  if (!available.has(index)) available.set(index, new Set(index.tiles));
  return names.filter((name) => available.get(index).has(name));
}

const available = new WeakMap();   // index → the set of its square names
