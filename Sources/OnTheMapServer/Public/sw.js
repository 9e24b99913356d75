// Offline support. The app's own files are kept so that it opens with no connection, and the
// last profile and posts seen are kept so that the map and list still show them (marked as a
// saved copy by the X-Offline-Copy header). Always network first: online, nothing is stale.
const SHELL_CACHE = 'onthemap-shell-v24';
const DATA_CACHE = 'onthemap-data-v1';
const SHELL_FILES = [
  '/', '/icon.svg', '/manifest.webmanifest', '/icons/icon-192.png', '/icons/maskable-192.png',
  '/config.json', '/basemap/index.json', '/basemap/world.json',
  // The basemap's worker, a module script of its own with what it imports.
  '/js/basemap-worker.js', '/js/basemap-drawing.js', '/js/basemap-sources.js',
  // The catalogues, one per language that ships (i18n.js CATALOGUES), so that every language
  // opens offline. A new language adds its path here.
  '/js/locales/en.js', '/js/locales/es.js', '/js/locales/pt-BR.js', '/js/locales/fr.js', '/js/locales/de.js',
  '/js/locales/ar.js', '/js/locales/hi.js', '/js/locales/zh-CN.js', '/js/locales/ja.js', '/js/locales/ru.js',
  '/js/locales/tr.js', '/js/locales/id.js',
  '/vendor/leaflet/leaflet.js', '/vendor/leaflet/leaflet.css', '/vendor/leaflet/leaflet.markercluster.js',
  '/vendor/leaflet/MarkerCluster.css', '/vendor/leaflet/MarkerCluster.Default.css',
];
// The page's scripts: its modules, as here, or, when the server serves the bundle (make
// web-bundle), the bundle's files, which the server writes here instead as it starts
// (WebClient/OfflineShell.swift), with the bundle's name in SHELL_CACHE's.
const SCRIPT_FILES = [
  '/js/main.js', '/js/app-state.js', '/js/loader.js', '/js/router.js', '/js/routes.js', '/js/status-line.js',
  '/js/top-bar.js', '/js/post-views.js', '/js/map-code.js', '/js/map-screens.js', '/js/install-app.js', '/js/api.js',
  '/js/api-errors.js', '/js/admin-api.js', '/js/admin-screen.js', '/js/auth-screens.js', '/js/basemap.js',
  '/js/basemap-tiles.js', '/js/cluster-layer.js', '/js/dom.js', '/js/frames.js', '/js/i18n.js',
  '/js/language-switch.js', '/js/links.js', '/js/live-merge.js', '/js/live-updates.js', '/js/live-view.js',
  '/js/log-out.js', '/js/map-labels.js', '/js/people.js', '/js/pin-map.js', '/js/pin-privacy.js', '/js/post-flow.js',
  '/js/post-list.js', '/js/report-pin.js', '/js/share-link.js', '/js/sign-in-providers.js', '/js/outbox.js',
  '/js/password-prompt.js', '/js/theme.js', '/js/waiting-posts.js', '/js/tile-canvases.js', '/js/time.js',
  '/js/course-api.js', '/js/course-choice.js', '/js/course-screen.js', '/js/course-switch.js', '/js/courses-screen.js',
  '/js/join-course.js', '/js/qr-code.js', '/js/section-tabs.js', '/js/class-hours.js', '/js/embed.js', '/js/reported-pins.js', '/js/audit-log.js',
  '/js/launch-session.js', '/js/token-event-source.js', '/js/lti-admin.js',
];
// Answers worth showing offline: who is logged in, and the posts.
const DATA_PATHS = ['/v1/me', '/v1/StudentLocation'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll([...SHELL_FILES, ...SCRIPT_FILES])).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  const current = [SHELL_CACHE, DATA_CACHE];
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => !current.includes(name)).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin) return;
  if (event.request.method === 'DELETE' && url.pathname === '/v1/session') {
    // Logging out forgets the saved profile and posts: the next person on this device sees none.
    event.respondWith(fetch(event.request).finally(() => caches.delete(DATA_CACHE)));
    return;
  }
  if (event.request.method !== 'GET') return;
  // A course's own map (`/c/{slug}/v1/…`) is kept for offline use as the default course's is.
  if (DATA_PATHS.includes(url.pathname.replace(/^\/c\/[a-z0-9-]+(?=\/v1\/)/, ''))) {
    event.respondWith(networkFirst(event.request, DATA_CACHE, true));
  } else if (url.pathname === '/' || url.pathname === '/index.html') {
    // The app's one page, whatever its query; other pages of this origin (API answers opened
    // in a tab) are none of the worker's business.
    event.respondWith(networkFirst(event.request, SHELL_CACHE, false, '/'));
  } else if (SHELL_FILES.includes(url.pathname) || SCRIPT_FILES.includes(url.pathname) || url.pathname.startsWith('/basemap/')) {
    // The basemap's detail squares and names are kept as they are seen: the places a student
    // looked at stay drawn offline.
    event.respondWith(networkFirst(event.request, SHELL_CACHE, false));
  }
});

/**
 * The network's answer, kept when it is a success; the kept copy when the network fails.
 * `cacheKey` replaces the request as the key (the page is kept under '/').
 */
async function networkFirst(request, cacheName, markCopies, cacheKey = null) {
  const cache = await caches.open(cacheName);
  const key = cacheKey || request;
  try {
    const response = await fetch(request);
    if (response.ok) {
      const kept = await cache.match(key);
      const etag = response.headers.get('ETag');
      // An unchanged file (same ETag) is not written again: the basemap is megabytes.
      if (!kept || !etag || kept.headers.get('ETag') !== etag) await cache.put(key, await stamped(response.clone()));
    } else if (response.status === 401 && markCopies) {
      await cache.delete(key);
    }
    return response;
  } catch (failure) {
    const kept = await cache.match(key);
    if (!kept) throw failure;
    if (!markCopies) return kept;
    const headers = new Headers(kept.headers);
    headers.set('X-Offline-Copy', kept.headers.get('X-Saved-At') || '');
    return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
  }
}

/** The response with the time it was saved, so an offline copy can say how old it is. */
async function stamped(response) {
  const headers = new Headers(response.headers);
  headers.set('X-Saved-At', new Date().toISOString());
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
}
