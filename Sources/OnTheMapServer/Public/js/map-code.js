// The map's code, fetched the first time a map is wanted: the login screen needs none of it, and
// on a slow phone network Leaflet alone (Debian's, about 100 KB compressed) would hold the login
// screen back by a second. Leaflet and its cluster plugin are classic scripts that make
// `window.L`; the modules that use it are imported only once it exists.

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

/** `{ PinMap, PostFlow }`, once Leaflet has loaded; fetched once (again after a failure). */
export function mapCode() {
  loading ??= (async () => {
    await Promise.all([script('/vendor/leaflet/leaflet.js'), script('/vendor/leaflet/leaflet.markercluster.js')]);
    const [{ PinMap }, { PostFlow }] = await Promise.all([import('./pin-map.js'), import('./post-flow.js')]);
    return { PinMap, PostFlow };
  })();
  loading.catch(() => { loading = null; });
  return loading;
}
