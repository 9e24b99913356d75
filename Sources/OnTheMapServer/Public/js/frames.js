// Which frame after a zoom or a move does which redraw. Each is deferred out of the zoom's own
// task, and each into a frame of its own, so that no frame holds all three: the basemap's new
// tiles first, the pins' clusters next, the map's names last (BENCHMARKS.md, "Zooming among all
// posts": together they made the rare frame of 50 ms or more among 5,000 pins).
export const FRAME = { tiles: 1, clusters: 2, labels: 3 };

/** Runs `work` in the `nth` frame from now (1: the next one). */
export function inFrame(nth, work) {
  requestAnimationFrame(nth <= 1 ? work : () => inFrame(nth - 1, work));
}
