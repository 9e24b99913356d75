// "Post my location": confirm an overwrite, ask where and which link, geocode, preview the pin
// with other candidates, then save. Cancel leaves everything as it was at every step.
import { ApiError, errorMessage, geocode, saveLocation } from './api.js';
import { createMap } from './basemap.js';
import { el, isBusy, setBusy, setFieldError, showMessage } from './dom.js';
import { joinSentences, msg, setKey, t } from './i18n.js';
import { parseSharedLink } from './links.js';
import { keep, newKey } from './outbox.js';
import { privacyChoice, sharedPlace } from './pin-privacy.js';

const L = window.L;
const byId = (id) => document.getElementById(id);
// How precise a match is (GET /v1/geocode's `accuracy`), as its badge says.
const precisionKeys = {
  address: 'post.precision.address', postcode: 'post.precision.postcode', city: 'post.precision.city',
  region: 'post.precision.region', country: 'post.precision.country',
};
const precisionLabel = (accuracy) => (precisionKeys[accuracy] ? t(precisionKeys[accuracy]) : accuracy);
const zoomFor = { address: 15, postcode: 11, city: 9, region: 6, country: 4 };
// Why the geocoder is less sure of its first answer (GET /v1/geocode's `doubts`), in the order shown.
const doubtKeys = {
  'two-places': 'post.doubt.twoPlaces',
  context: 'post.doubt.context',
  typo: 'post.doubt.typo',
  transliterated: 'post.doubt.transliterated',
  namesakes: 'post.doubt.namesakes',
};
// The offline basemap has no streets or towns: past this zoom it shows nothing to recognise a place by.
const offlineZoomLimit = 6;

export class PostFlow {
  /**
   * `onFinish(objectId | null, {waiting})` runs when the flow ends: the saved pin's id, or null on
   * cancel or when the post waits on this device to be sent (`waiting`, its outbox entry);
   * `onSessionEnded(message)` (an i18n Message) when the server no longer knows the student.
   */
  constructor(onFinish, onSessionEnded) {
    this.onFinish = onFinish;
    this.onSessionEnded = onSessionEnded;
    this.previewMap = null;
    this.previewPin = null;
    this.existing = null;
    this.candidates = [];
    this.input = 'place';
    this.doubts = [];
    this.chosen = null;
    this.chosenIndex = 0;
    this.privacy = null;
    this.link = '';
    byId('post-form').addEventListener('submit', (event) => { event.preventDefault(); this.find(); });
    byId('post-later').addEventListener('click', () => this.postLater());
    byId('post-cancel').addEventListener('click', () => this.finish(null));
    byId('preview-back').addEventListener('click', () => this.showForm());
    byId('finish-button').addEventListener('click', () => this.save());
    for (const input of byId('preview-privacy').querySelectorAll('input')) {
      input.addEventListener('change', () => this.showShared());
    }
    byId('post-screen').addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !byId('overwrite-dialog').open) this.finish(null);
    });
    const dialog = byId('overwrite-dialog');
    byId('overwrite-cancel').addEventListener('click', () => dialog.close('cancel'));
    byId('overwrite-confirm').addEventListener('click', () => dialog.close('overwrite'));
  }

  /**
   * Starts the flow for the caller whose current pin in `course` (a slug, null for the default
   * course) is `existing` (or null). Resolves false when they decline to overwrite it, true once
   * the form is showing.
   */
  async start(existing, account, course) {
    this.existing = existing;
    this.account = account;
    this.course = course;
    if (existing && !(await this.confirmOverwrite(existing))) return false;
    byId('post-location').value = existing ? existing.mapString : '';
    byId('post-link').value = existing ? existing.mediaURL : '';
    this.showForm();
    return true;
  }

  /** Asks in a modal dialog (focus kept inside, Escape cancels) whether to replace the pin. */
  confirmOverwrite(existing) {
    const dialog = byId('overwrite-dialog');
    showMessage(byId('overwrite-text'), msg('overwrite.text', { place: existing.mapString }));
    dialog.returnValue = '';
    dialog.showModal();
    byId('overwrite-cancel').focus();
    return new Promise((resolve) => {
      dialog.addEventListener('close', () => resolve(dialog.returnValue === 'overwrite'), { once: true });
    });
  }

  showForm() {
    byId('post-later-offer').hidden = true;
    byId('post-form').hidden = false;
    byId('post-preview').hidden = true;
    showMessage(byId('post-error'), '');
    byId('post-location').focus();
  }

  /** Both fields checked, each failure explained by its field: `{place, link}`, or null. */
  checkedFields() {
    const locationInput = byId('post-location');
    const linkInput = byId('post-link');
    const place = locationInput.value.trim();
    const link = parseSharedLink(linkInput.value);
    setFieldError(locationInput, byId('post-location-error'), place ? '' : msg('post.missingPlace'));
    setFieldError(linkInput, byId('post-link-error'), link.error || '');
    if (!place || link.error) {
      (place ? linkInput : locationInput).focus();
      return null;
    }
    return { place, link };
  }

  /** Checks both fields, then geocodes; each failure gets its own message by its field. */
  async find() {
    if (isBusy(byId('find-button'))) return;
    byId('post-later-offer').hidden = true;
    const locationInput = byId('post-location');
    const checked = this.checkedFields();
    if (!checked) return;
    const { place, link } = checked;
    const button = byId('find-button');
    setBusy(button, true);
    setKey(button, 'post.finding');
    try {
      ({ input: this.input, results: this.candidates, doubts: this.doubts = [] } = await geocode(place));
    } catch (failure) {
      setFieldError(locationInput, byId('post-location-error'), errorMessage(failure));
      // No network to look the place up: the post can wait on this device, place and all.
      byId('post-later-offer').hidden = failure.kind !== 'network';
      locationInput.focus();
      return;
    } finally {
      setBusy(button, false);
      setKey(button, 'post.find');
    }
    if (this.candidates.length === 0) {
      setFieldError(locationInput, byId('post-location-error'), msg('post.notFound', { place }));
      locationInput.focus();
      return;
    }
    this.mapString = locationInput.value;
    this.link = link.url;
    await this.showPreview();
  }

  /** Replaces the form with a map of the best match and the other candidates to pick from. */
  async showPreview() {
    byId('post-form').hidden = true;
    byId('post-preview').hidden = false;
    showMessage(byId('post-error'), '');
    byId('preview-link').textContent = this.link;
    if (!this.previewMap) {
      this.previewMap = await createMap(byId('preview-map'));
      // What the preview frames, as "west,south,east,north" (read by the browser tests).
      this.previewMap.on('moveend', () => { byId('preview-map').dataset.view = this.previewMap.getBounds().toBBoxString(); });
    }
    this.previewMap.invalidateSize();
    this.renderCandidates();
    this.choose(0);
    byId('finish-button').focus();
  }

  /** The other matches to pick from; `checked` is the one picked. */
  renderCandidates(checked = 0) {
    const options = this.candidates.map((candidate, index) => el('label', { class: 'candidate' },
      el('input', { type: 'radio', name: 'candidate', value: index, checked: index === checked }),
      el('span', {}, candidate.name, ' · ', precisionLabel(candidate.accuracy))));
    byId('candidate-options').replaceChildren(...options);
    byId('preview-candidates').hidden = this.candidates.length < 2;
    for (const input of byId('candidate-options').querySelectorAll('input')) {
      input.addEventListener('change', () => this.choose(Number(input.value)));
    }
  }

  /**
   * Picks candidate `index` and offers to share only its town when the text was precise. The first
   * answer says when it is less sure and why; a place the student picked is theirs.
   */
  choose(index) {
    this.chosen = this.candidates[index];
    this.chosenIndex = index;
    this.explainDoubts();
    this.privacy = privacyChoice(this.input, this.chosen, this.mapString);
    const fieldset = byId('preview-privacy');
    fieldset.hidden = !this.privacy;
    if (this.privacy) {
      byId('privacy-city').textContent = this.privacy.city.mapString;
      byId('privacy-exact').textContent = this.privacy.exact.mapString;
      fieldset.querySelector(`input[value="${this.privacy.initial}"]`).checked = true;
    }
    this.showShared();
  }

  /** Says why the first answer is less sure, when it is and is the one chosen. */
  explainDoubts() {
    // Two places named are read out of words: the first sentence says it all.
    const doubts = this.chosenIndex === 0 ? Object.keys(doubtKeys).filter((doubt) => this.doubts.includes(doubt)
      && !(doubt === 'context' && this.doubts.includes('two-places'))) : [];
    byId('preview-less-sure').hidden = doubts.length === 0;
    const explanation = byId('preview-doubt');
    explanation.hidden = doubts.length === 0;
    const sentences = doubts.map((doubt) => t(doubtKeys[doubt]));
    sentences.push(t(this.candidates.length > 1 ? 'post.doubt.pickAnother' : 'post.doubt.edit'));
    explanation.textContent = joinSentences(sentences);
  }

  /**
   * After a change of language: the preview's words again (the matches' badges, the doubts), the
   * student's choices kept.
   */
  relabel() {
    if (byId('post-preview').hidden || !this.chosen) return;
    this.renderCandidates(this.chosenIndex);
    this.explainDoubts();
    this.showShared();
  }

  /** What will be posted: the chosen way of sharing, or the candidate itself. */
  shared() {
    const way = byId('preview-privacy').querySelector('input:checked');
    return sharedPlace(this.chosen, this.mapString, this.privacy, way ? way.value : 'exact');
  }

  /** Moves the preview pin to what will be posted, and frames it. */
  showShared() {
    const shared = this.shared();
    const onlyTown = this.privacy && shared === this.privacy.city;
    byId('preview-name').textContent = onlyTown ? shared.mapString : this.chosen.name;
    const accuracy = onlyTown ? 'city' : this.chosen.accuracy;
    byId('preview-precision').textContent = precisionLabel(accuracy);
    const point = [shared.latitude, shared.longitude];
    if (this.previewPin) this.previewPin.setLatLng(point);
    else {
      this.previewPin = L.marker(point, {
        icon: L.divIcon({ className: 'pin-marker', html: '<div class="pin mine"></div>', iconSize: [30, 30], iconAnchor: [15, 36] }),
        keyboard: false, title: t('post.newPin'),
      }).addTo(this.previewMap);
      // Its tooltip follows a change of language with the rest of the page.
      this.previewPin.getElement().setAttribute('data-i18n-attr', 'title:post.newPin');
    }
    const limit = this.previewMap.hasTiles ? this.previewMap.getMaxZoom() : offlineZoomLimit;
    const box = onlyTown ? null : this.chosen.bbox;
    if (box) {
      // [west, south, east, north]; across the date line east is carried past 180 for Leaflet.
      const east = box[2] < box[0] ? box[2] + 360 : box[2];
      this.previewMap.fitBounds([[box[1], box[0]], [box[3], east]], { padding: [20, 20], maxZoom: limit });
    } else {
      this.previewMap.setView(point, Math.min(zoomFor[accuracy] || 8, limit));
    }
  }

  /**
   * Saves the pin (creating or updating); a refusal is explained and the preview stays. Without a
   * network (or with one that dropped the answer), the post waits on this device and is sent,
   * with the same Idempotency-Key, when the network is back (outbox.js).
   */
  async save() {
    const button = byId('finish-button');
    if (isBusy(button)) return;
    const error = byId('post-error');
    showMessage(error, '');
    setBusy(button, true);
    const { mapString, latitude, longitude } = this.shared();
    const entry = this.outboxEntry({ mapString, mediaURL: this.link, latitude, longitude });
    try {
      if (navigator.onLine === false) throw new ApiError('network', 'error.network');
      const saved = await saveLocation(entry.objectId, entry.fields, { course: entry.course, idempotencyKey: entry.key });
      this.finish(entry.objectId || saved.objectId);
    } catch (failure) {
      if (failure.kind === 'network' && await this.keepForLater(entry)) return;
      const message = msg('post.notSaved', { reason: errorMessage(failure) });
      if (failure.kind === 'session') {
        this.onSessionEnded(message);
        return;
      }
      showMessage(error, message);
      button.focus();
    } finally {
      setBusy(button, false);
    }
  }

  /** This post as outbox.js keeps it: a new key, the student's account, the pin it replaces. */
  outboxEntry(fields) {
    const objectId = (this.existing && this.existing.objectId) || null;
    return { key: newKey(), account: this.account, course: this.course, objectId, fields, createdAt: Date.now() };
  }

  /** Posts what was typed, to be sent (and its place found) when the network is back. */
  async postLater() {
    const checked = this.checkedFields();
    if (!checked) return;
    const entry = this.outboxEntry({ mapString: checked.place, mediaURL: checked.link.url });
    if (!(await this.keepForLater(entry))) showMessage(byId('post-location-error'), msg('error.network'));
  }

  /**
   * Keeps the post on this device to send later and ends the flow; false when the device cannot
   * keep it (no IndexedDB: a private window of some browsers), and the failure is explained instead.
   */
  async keepForLater(entry) {
    try {
      await keep(entry);
    } catch {
      return false;
    }
    this.finish(null, { waiting: entry });
    return true;
  }

  /** Ends the flow: `objectId` of the saved pin, or null (cancelled, or `waiting` to be sent). */
  finish(objectId, { waiting = null } = {}) {
    for (const [input, message] of [['post-location', 'post-location-error'], ['post-link', 'post-link-error']]) {
      setFieldError(byId(input), byId(message), '');
    }
    this.onFinish(objectId, { waiting });
  }
}
