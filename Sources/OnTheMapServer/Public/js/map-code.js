// The map's code, fetched the first time a map is wanted: the login screen needs none of it, and
// on a slow phone network Leaflet alone (Debian's, about 100 KB compressed) would hold the login
// screen back by a second. Leaflet and its cluster plugin are classic scripts that make
// `window.L`; the modules that use it are imported only once it exists. Their styles come with
// them, so that the page's first answer names only the app's own.

let loading = null;

/** Adds a classic script; in order with the others added so (`async = false`), fetched in parallel. */
function script(src) {
  return new Promise((resolve, reject) => {
    const element = document.createElement('script');
    element.src = src;
    element.async = false;
    element.onload = resolve;
    element.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(element);
  });
}

/**
 * Adds a style sheet before the page's own styles (a `<style>` the page carries, or app.css),
 * which override some of Leaflet's rules and so must come after them; resolves once it applies.
 */
function styleSheet(href) {
  return new Promise((resolve, reject) => {
    const element = document.createElement('link');
    element.rel = 'stylesheet';
    element.href = href;
    element.onload = resolve;
    element.onerror = () => reject(new Error(`could not load ${href}`));
    document.head.insertBefore(element, document.head.querySelector('style, link[rel="stylesheet"]'));
  });
}

const LEAFLET_STYLES = ['leaflet.css', 'MarkerCluster.css', 'MarkerCluster.Default.css'].map((name) => `/vendor/leaflet/${name}`);

/** `{ PinMap, PostFlow }`, once Leaflet has loaded; fetched once (again after a failure). */
export function mapCode() {
  loading ??= (async () => {
    await Promise.all([
      script('/vendor/leaflet/leaflet.js'), script('/vendor/leaflet/leaflet.markercluster.js'), ...LEAFLET_STYLES.map(styleSheet),
    ]);
    const { PinMap, PostFlow } = await import('./map-screens.js');
    return { PinMap, PostFlow };
  })();
  loading.catch(() => { loading = null; });
  return loading;
}
