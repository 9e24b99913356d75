// The pins' cluster group, tuned for zooming among thousands of pins on a slow phone
// (BENCHMARKS.md, "Zooming among all posts"). Leaflet.markercluster redraws every cluster of the
// new zoom in the frame that ends the zoom, for three times the view in each direction; here it
// does so for the view and a quarter around it, in a frame of its own after the basemap's tiles
// have had theirs (frames.js).
import { FRAME, inFrame } from './frames.js';

const L = window.L;

/** The share of the view's width and height that clusters are kept beyond each edge. */
const MARGIN = 0.25;

export function clusterLayer(options) {
  const group = L.markerClusterGroup({
    chunkedLoading: true,
    // No flying markers between zoom levels: with thousands of pins the animation's frames took
    // up to 100 ms.
    animate: false,
    showCoverageOnHover: false,
    ...options,
  });
  // markercluster's own margin is a whole view on every side on a desktop (none on a phone): at
  // the zoom where a course's pins spread out, that made 342 cluster elements for 101 in view.
  group._getExpandedVisibleBounds = function expandedVisibleBounds() {
    return this._checkBoundsMaxLat(this._map.getBounds().pad(MARGIN));
  };
  deferToNextFrame(group, ['_zoomEnd', '_moveEnd']);
  return group;
}

/**
 * Replaces the group's map event handlers `names` (bound when the group is added to a map) with
 * ones that run them in the clusters' frame, once each however often asked before then, in the order
 * first asked (a zoom's end before its move's end). The group fires `clustersdrawn` after them.
 */
function deferToNextFrame(group, names) {
  let queued = null;
  for (const name of names) {
    const handler = group[name];
    group[name] = function deferred() {
      const first = !queued;
      queued ??= new Map();
      queued.set(name, handler);
      if (!first) return;
      inFrame(FRAME.clusters, () => {
        const handlers = queued;
        queued = null;
        if (!group._map) return;
        for (const run of handlers.values()) run.call(group);
        group.fire('clustersdrawn');
      });
    };
  }
}
