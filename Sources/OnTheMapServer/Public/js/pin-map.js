// The main map: one pin per post, clustered so thousands stay fast, the caller's own pin drawn
// apart from the clusters so it always stands out.
import { createMap } from './basemap.js';
import { clusterLayer } from './cluster-layer.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { authorName, popupContent } from './people.js';
import { reportControl } from './report-pin.js';
import { shareControl } from './share-link.js';
import { waitingNote } from './waiting-posts.js';

const L = window.L;
const pinIcon = L.divIcon({ className: 'pin-marker', html: '<div class="pin"></div>', iconSize: [22, 22], iconAnchor: [11, 26], popupAnchor: [0, -24] });
const freshPinIcon = L.divIcon({ className: 'pin-marker', html: '<div class="pin fresh"></div>', iconSize: [22, 22], iconAnchor: [11, 26], popupAnchor: [0, -24] });
const myPinIcon = L.divIcon({ className: 'pin-marker', html: '<div class="pin mine"></div>', iconSize: [30, 30], iconAnchor: [15, 36], popupAnchor: [0, -32] });
const waitingPinIcon = L.divIcon({ className: 'pin-marker', html: '<div class="pin mine waiting"></div>', iconSize: [30, 30], iconAnchor: [15, 36], popupAnchor: [0, -32] });
const popupOptions = { className: 'pin-popup', autoPanPadding: [24, 24], maxWidth: 280, minWidth: 160 };

/**
 * A cluster's bubble: its count, and words for screen readers. Built as elements, not an HTML
 * string: the frame after a zoom makes about a hundred, and parsing them took 7 ms of it.
 */
function clusterIcon(cluster) {
  const count = cluster.getChildCount();
  const size = count < 10 ? 'small' : count < 100 ? 'medium' : 'large';
  return L.divIcon({
    html: el('div', {}, el('span', { 'aria-hidden': 'true' }, count), el('span', { class: 'visually-hidden' }, t('map.cluster', { count }))),
    className: `marker-cluster marker-cluster-${size}`,
    iconSize: L.point(40, 40),
  });
}

/** Enter or Space on a focused pin: Leaflet 1.7 does not turn these into clicks. */
function isActivation(event) {
  const key = event.originalEvent && event.originalEvent.key;
  return key === 'Enter' || key === ' ';
}

/** A pin's spoken name and tooltip: who, and where. */
function pinLabel(location, isMine) {
  const name = authorName(location, isMine);
  return location.mapString ? t('map.pinLabel', { name, place: location.mapString }) : name;
}

/** Gives a marker's element a role and a spoken name once Leaflet has created it. */
function labelMarker() {
  const element = this.getElement();
  if (!element) return;
  element.setAttribute('role', 'button');
  element.setAttribute('aria-label', this.options.title);
}

export class PinMap {
  /** `readOnly`: popups without sharing or reporting (a course's map framed on another site). */
  constructor(element, { readOnly = false } = {}) {
    this.element = element;
    this.readOnly = readOnly;
    this.map = null;
    this.markers = new Map();
    this.clusters = null;
    this.mine = null;
    this.myObjectId = null;
    this.fitWhenShown = false;
    this.popupFor = null;     // the objectId whose popup is open
    this.popupOpener = null;  // the pin element that opened it, for Escape to return to
  }

  /** Draws the basemap, once; `show` waits for it. */
  open() {
    this.opening ??= this.create();
    return this.opening;
  }

  async create() {
    this.map = await createMap(this.element);
    this.clusters = clusterLayer({
      spiderfyOnMaxZoom: true,
      maxClusterRadius: 60,
      iconCreateFunction: clusterIcon,
    });
    this.clusters.on('click', (event) => this.openPopup(event.layer));
    this.clusters.on('keypress', (event) => { if (isActivation(event)) this.openPopup(event.layer, { fromKeyboard: true }); });
    // Escape closes a popup and gives focus back to the pin that opened it (Leaflet's own Escape
    // works only while the map itself has focus, not a pin or the popup's link).
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || !this.popupFor) return;
      event.stopPropagation();
      const opener = this.popupOpener;
      this.map.closePopup();
      if (opener && opener.isConnected) opener.focus();
    });
    this.map.addLayer(this.clusters);
    this.map.on('popupclose', () => { this.popupFor = null; });
    this.fitControl().addTo(this.map);
  }

  /**
   * Replaces the pins with `locations`; the pin whose objectId is `myObjectId` is the caller's.
   * Resolves when every pin is on the map. Fits the view to the pins unless `keepView`.
   */
  show(locations, myObjectId, { keepView = false } = {}) {
    this.map.closePopup();
    this.clusters.clearLayers();
    if (this.mine) this.mine.remove();
    this.markers.clear();
    this.mine = null;
    this.myObjectId = myObjectId;
    const clustered = [];
    for (const location of locations) {
      const marker = this.makeMarker(location);
      if (!marker) continue;
      if (marker.isMine) this.mine = marker;
      else clustered.push(marker);
    }
    if (this.mine) this.mine.addTo(this.map);
    const done = new Promise((resolve) => {
      if (clustered.length === 0) { resolve(); return; }
      this.clusters.options.chunkProgress = (processed, total) => { if (processed === total) resolve(); };
    });
    this.clusters.addLayers(clustered);
    // A map in a hidden tab has no size to fit to: fit once it is shown (see `resize`).
    if (this.map.getSize().x === 0) this.fitWhenShown = !keepView || this.fitWhenShown;
    else if (!keepView) this.fitToPins({ animate: false });
    return done;
  }

  /**
   * A live change: puts the post's pin on the map, replacing its old one (a moved pin moves),
   * marked as new for a few seconds when `fresh`. The view stays where the reader left it.
   */
  put(location, { fresh = false } = {}) {
    const popupWasOpen = this.popupFor === location.objectId;
    this.remove(location.objectId);
    const marker = this.makeMarker(location, fresh);
    if (!marker) return;
    if (marker.isMine) {
      this.mine = marker;
      marker.addTo(this.map);
    } else {
      this.clusters.addLayer(marker);
    }
    // A reader looking at this post's popup keeps it, with the new details.
    if (popupWasOpen) this.openPopup(marker);
    if (fresh && !marker.isMine) setTimeout(() => { if (this.markers.get(location.objectId) === marker) marker.setIcon(pinIcon); }, 8000);
  }

  /** A live deletion: the pin goes (and its popup, if open). */
  remove(objectId) {
    const marker = this.markers.get(objectId);
    if (!marker) return;
    if (this.popupFor === objectId) this.map.closePopup();
    if (marker === this.mine) { marker.remove(); this.mine = null; } else this.clusters.removeLayer(marker);
    this.markers.delete(objectId);
  }

  /** A marker for a post, or null when its coordinates are unusable. */
  makeMarker(location, fresh = false) {
    if (!Number.isFinite(location.latitude) || !Number.isFinite(location.longitude)) return null;
    const isMine = location.objectId === this.myObjectId;
    const marker = L.marker([location.latitude, location.longitude], {
      icon: location.waiting ? waitingPinIcon : isMine ? myPinIcon : fresh ? freshPinIcon : pinIcon,
      title: pinLabel(location, isMine),
      keyboard: true,
      zIndexOffset: isMine ? 1000 : 0,
    });
    marker.location = location;
    marker.isMine = isMine;
    marker.on('add', labelMarker);
    this.markers.set(location.objectId, marker);
    if (isMine) {
      marker.on('click', () => this.openPopup(marker));
      marker.on('keypress', (event) => { if (isActivation(event)) this.openPopup(marker, { fromKeyboard: true }); });
    }
    return marker;
  }

  /** A button under the zoom buttons that frames every pin again. */
  fitControl() {
    const control = L.control({ position: 'topleft' });
    control.onAdd = () => {
      const button = L.DomUtil.create('button', 'fit-button');
      button.id = 'fit-button';
      button.type = 'button';
      // Its words follow a change of language with the rest of the page (i18n.js translatePage).
      button.setAttribute('data-i18n-attr', 'title:map.fitAll; aria-label:map.fitAll');
      button.title = t('map.fitAll');
      button.setAttribute('aria-label', t('map.fitAll'));
      button.innerHTML = '<svg aria-hidden="true" viewBox="0 0 24 24"><path d="M4 9V4h5v2H6v3H4zm11-5h5v5h-2V6h-3V4zM6 15v3h3v2H4v-5h2zm12 0h2v5h-5v-2h3v-3z"/></svg>';
      L.DomEvent.disableClickPropagation(button);
      L.DomEvent.on(button, 'click', () => this.fitToPins());
      return button;
    };
    return control;
  }

  /**
   * Frames every pin; a world view when there are none. New data is framed without animation,
   * so the pins are in place when the map says it is ready; the fit button animates.
   */
  fitToPins({ animate = true } = {}) {
    const points = [...this.markers.values()].map((marker) => marker.getLatLng());
    if (points.length === 0) this.map.setView([25, 0], 2, { animate });
    else if (points.length === 1) this.map.setView(points[0], 6, { animate });
    else this.map.fitBounds(L.latLngBounds(points), { padding: [30, 30], maxZoom: 8, animate });
  }

  /** Centres on a post's pin and opens its popup (after a post, for instance). */
  focus(objectId) {
    const marker = this.markers.get(objectId);
    if (!marker) return;
    this.map.setView(marker.getLatLng(), Math.max(this.map.getZoom(), 6), { animate: false });
    if (marker === this.mine) this.openPopup(marker);
    // The new view's clusters are drawn a frame after it (cluster-layer.js): the pin is sought then.
    else this.clusters.once('clustersdrawn', () => this.clusters.zoomToShowLayer(marker, () => this.openPopup(marker)));
  }

  /**
   * Opens the popup of a pin. One popup at a time, built when asked for rather than bound to
   * each of thousands of markers; tapping the map elsewhere closes it (Leaflet's default).
   */
  openPopup(marker, { fromKeyboard = false } = {}) {
    const { location } = marker;
    // A post still waiting on this device can be cancelled, not yet shared or reported.
    const content = location.waiting
      ? el('div', {}, popupContent(location, marker.isMine), el('div', { class: 'popup-actions' }, waitingNote(location)))
      : this.readOnly ? el('div', {}, popupContent(location, false))
        : el('div', {}, popupContent(location, marker.isMine), shareControl(location), marker.isMine ? null : reportControl(location));
    const popup = L.popup({ ...popupOptions, offset: marker.isMine ? [0, -32] : [0, -24] })
      .setLatLng(marker.getLatLng())
      .setContent(content)
      .openOn(this.map);
    // Leaflet's close button has English words of its own (or none): the page's, in its language.
    const close = popup.getElement() && popup.getElement().querySelector('.leaflet-popup-close-button');
    if (close) close.setAttribute('aria-label', t('map.closePopup'));
    // Opening "Report this pin", or a share's status line, makes the popup taller: it is laid out
    // and panned into view again. Leaflet puts the content back in doing so, which drops focus:
    // whatever had it inside gets it back.
    new ResizeObserver(() => {
      if (!popup.isOpen()) return;
      const focused = content.contains(document.activeElement) ? document.activeElement : null;
      popup.update();
      if (focused) focused.focus({ preventScroll: true });
    }).observe(content);
    // After openOn, whose closing of the previous popup clears it.
    this.popupFor = marker.location.objectId;
    this.popupOpener = marker.getElement() || null;
    // From the keyboard, the link is the next thing wanted: focus goes there, not 40 pins away.
    if (fromKeyboard) {
      const link = popup.getElement() && popup.getElement().querySelector('.popup-link, a[href]');
      if (link) link.focus({ preventScroll: true });
    }
  }

  /**
   * After a change of language: each pin's spoken name, the clusters' words and the open popup
   * again (the fit button and the zoom buttons follow with the static page).
   */
  relabel() {
    if (!this.map) return;
    for (const marker of this.markers.values()) {
      const label = pinLabel(marker.location, marker.isMine);
      marker.options.title = label;
      const element = marker.getElement();
      if (element) {
        element.title = label;
        element.setAttribute('aria-label', label);
      }
    }
    this.clusters.refreshClusters();
    const open = this.popupFor && this.markers.get(this.popupFor);
    if (open) this.openPopup(open);
  }

  /** Leaflet needs this after its container was hidden or resized. */
  resize() {
    if (!this.map) return;
    this.map.invalidateSize();
    if (this.fitWhenShown && this.map.getSize().x > 0) {
      this.fitWhenShown = false;
      this.fitToPins({ animate: false });
    }
  }
}
