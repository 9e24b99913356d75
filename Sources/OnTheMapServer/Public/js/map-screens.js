// The screens that draw a map: the pin map and the post flow. They need Leaflet (`window.L`), so
// map-code.js imports this module only once Leaflet has loaded. One module for both, so that the
// bundle (make web-bundle) splits the client into three files only: the boot, the code the boot
// shares with this module, and this module.
export { PinMap } from './pin-map.js';
export { PostFlow } from './post-flow.js';
