// Drawing the basemap's shapes into canvas tiles, on the page or in a worker (no DOM here). A
// geometry file is projected once (Web Mercator, in the pixels of a 256-pixel world at zoom 0)
// into parts with boxes; a tile then draws only the parts its box meets, scaled to its zoom, with
// each kind as a single path.

const WORLD = 256;
const MAX_LATITUDE = 85.0511287798;

const styles = {
  // (Each detail square's land overlaps its neighbours' a little: no hairline where they meet.)
  land: { fill: '#f4f1e8' },
  river: { stroke: '#9ccbe8', width: 1 },
  admin1: { stroke: '#b9ad9b', width: 0.6, dash: [3, 3] },
  border: { stroke: 'rgba(143, 133, 119, 0.9)', width: 1 },
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

function boxOf(rings) {
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const ring of rings) {
    for (let index = 0; index < ring.length; index += 2) {
      box[0] = Math.min(box[0], ring[index]);
      box[1] = Math.min(box[1], ring[index + 1]);
      box[2] = Math.max(box[2], ring[index]);
      box[3] = Math.max(box[3], ring[index + 1]);
    }
  }
  return box;
}

/**
 * A geometry file's features as kind → parts ({ box, rings }), a polygon or a line each. The rings
 * of a kind are views of one buffer: a worker hands them over without a copy.
 */
export function project(data) {
  const shapes = {};
  for (const feature of data.features) {
    const { type, coordinates } = feature.geometry;
    const partsOf = type === 'MultiPolygon' ? coordinates
      : type === 'Polygon' ? [coordinates]
        : type === 'MultiLineString' ? coordinates.map((line) => [line]) : [[coordinates]];
    let points = 0;
    for (const part of partsOf) for (const ring of part) points += ring.length;
    const buffer = new Float64Array(points * 2);
    let offset = 0;
    shapes[feature.properties.kind] = partsOf.map((part) => {
      const rings = part.map((ring) => {
        const view = buffer.subarray(offset, offset + ring.length * 2);
        ring.forEach((point, index) => projectPoint(point, view, index * 2));
        offset += ring.length * 2;
        return view;
      });
      return { box: boxOf(rings), rings };
    });
  }
  return shapes;
}

/** The buffers under projected shapes, to hand them to another thread. */
export function buffersOf(shapes) {
  return [...new Set(Object.values(shapes).flatMap((parts) => parts.flatMap((part) => part.rings.map((ring) => ring.buffer))))];
}

/** Adds the rings of `parts` that meet the tile to the context's path, in tile pixels. */
function tracePath(context, parts, scale, originX, originY, closed) {
  // The tile's box at zoom 0, with a pixel's margin for line widths.
  const margin = 2 / scale;
  const west = originX / scale - margin;
  const north = originY / scale - margin;
  const east = (originX + WORLD) / scale + margin;
  const south = (originY + WORLD) / scale + margin;
  for (const { box, rings } of parts) {
    if (box[0] > east || box[2] < west || box[1] > south || box[3] < north) continue;
    for (const ring of rings) {
      let lastX = ring[0] * scale - originX;
      let lastY = ring[1] * scale - originY;
      context.moveTo(lastX, lastY);
      const end = ring.length - 2;
      for (let index = 2; index <= end; index += 2) {
        const x = ring[index] * scale - originX;
        const y = ring[index + 1] * scale - originY;
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
 * per CSS pixel.
 */
export function drawTile(canvas, coords, sources, ratio) {
  const context = canvas.getContext('2d');
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, WORLD, WORLD);
  const scale = 2 ** coords.z;
  const originX = coords.x * WORLD;
  const originY = coords.y * WORLD;
  for (const shapes of sources) {
    for (const kind of KINDS) {
      const parts = shapes[kind];
      if (!parts) continue;
      const style = styles[kind];
      context.beginPath();
      tracePath(context, parts, scale, originX, originY, Boolean(style.fill));
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
