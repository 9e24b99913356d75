// Fetches, parses and projects the basemap's detail squares away from the page's main thread, so
// that a square arriving never takes a frame from a zoom or a pan. Asked { name }, it answers
// { name, cities, shapes, bytes } with the projected points handed over, not copied, or
// { name, error }.
import { buffersOf } from './basemap-drawing.js';
import { fetchSquare } from './basemap-sources.js';

self.onmessage = async ({ data: { name } }) => {
  try {
    const square = await fetchSquare(name);
    self.postMessage({ name, ...square }, buffersOf(square.shapes));
  } catch (error) {
    self.postMessage({ name, error: String(error) });
  }
};
