// The canvases of the basemap's tiles, kept for the next tiles rather than let go. A 256-pixel
// tile canvas holds a quarter of a megabyte of pixels (four times that on a phone's screen), which
// the browser counts toward the page's heap: thirty new ones per zoom step brought on the full
// garbage collections whose pauses were the slow frames of a zoom (BENCHMARKS.md, "Zooming among
// all posts"). What is kept is let go after a while without zooming or panning.

const RELEASE_AFTER_MS = 20_000;

/**
 * How many let-go canvases are kept: two screenfuls of tiles. A zoom lets go of the last zoom's
 * tiles and of the ones Leaflet kept around them, and the next zoom needs as many (a screenful
 * alone left the collections to every other zoom step). Not a fixed count: a phone's canvases
 * hold up to nine times a desktop's pixels, and fewer of them fill its screen.
 */
function kept() {
  return 2 * Math.ceil(window.innerWidth / 256 + 1) * Math.ceil(window.innerHeight / 256 + 1);
}

const spare = [];
let releaseTimer = 0;

/** A canvas for a tile of `ratio` canvas pixels per CSS pixel: a spare one when there is one. */
export function takeCanvas(ratio) {
  const size = 256 * ratio;
  const canvas = spare.pop() || document.createElement('canvas');
  // Setting a size clears the canvas, even to the same size: only when it differs (the drawing
  // clears it anyway).
  if (canvas.width !== size || canvas.height !== size) canvas.width = canvas.height = size;
  // Hidden (Leaflet's style) until drawn again: not its old picture at a new place.
  canvas.classList.remove('leaflet-tile-loaded');
  return canvas;
}

/** A tile's canvas that Leaflet let go: kept for another tile. */
export function giveCanvas(canvas) {
  if (spare.length < kept() && !spare.includes(canvas)) spare.push(canvas);
  clearTimeout(releaseTimer);
  releaseTimer = setTimeout(releaseSpares, RELEASE_AFTER_MS);
}

/** Lets the spare canvases' pixels go (a canvas of no size holds none). */
function releaseSpares() {
  for (const canvas of spare) canvas.width = canvas.height = 0;
  spare.length = 0;
}
