// The list and the map's pins, drawn from the state (app-state.js) with the posts waiting on this
// device. The map is made once, the first time it is wanted: its code and basemap are fetched
// then (map-code.js), so that nothing here holds the login screen back.
import { appState } from './app-state.js';
import { mapCode } from './map-code.js';
import { renderPostList } from './post-list.js';
import { withWaiting } from './waiting-posts.js';

const byId = (id) => document.getElementById(id);

let opening = null;
let map = null;

/** The map, once it is made (it may still be opening); null before. */
export const pinMap = () => map;

/** True once the map was asked for (and its opening has not failed). */
export const mapWanted = () => opening !== null;

/** The map, made and opened the first time it is wanted; asked again after a failure. */
export function openPinMap() {
  opening ??= mapCode().then(async ({ PinMap }) => {
    map = new PinMap(byId('map'));
    await map.open();
    return map;
  });
  opening.catch(() => { opening = null; });
  return opening;
}

/** Draws the list and the pins; the view stays where it is unless `keepView` is false. */
export async function showPosts({ keepView = true } = {}) {
  showList();
  await showPins({ keepView });
}

/** The list: it needs no map, so its rows show while the basemap may still be on its way. */
export function showList() {
  const { state } = appState;
  if (!state.me || !state.loaded) return;
  const { rows, mine } = withWaiting(state);
  renderPostList(byId('post-list'), byId('list-empty'), rows, mine);
  if (rows.length && !performance.getEntriesByName('list-rows').length) performance.mark('list-rows');
}

export async function showPins({ keepView = true } = {}) {
  if (!appState.state.me || !mapWanted() || !appState.state.loaded) return;
  await openPinMap(); // on a first visit, the map's code and basemap may still be on their way
  const { pins, mine } = withWaiting(appState.state);
  await map.show(pins, mine, { keepView });
}

/** After a change of language: the list and the map's labels, built from data, again in it. */
export function relabelPosts() {
  showList();
  if (map) map.relabel();
}
