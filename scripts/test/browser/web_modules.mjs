// Lets node import the web client's modules (Sources/OnTheMapServer/Public/js): they are ES modules in
// files named .js with no package.json saying so, which a node without module detection would read
// as CommonJS. Import this first, then the client's modules with `clientModule('i18n.js')`.
import * as nodeModule from 'node:module';

export const web = new URL('../../../Sources/OnTheMapServer/Public/', import.meta.url);
export const js = new URL('js/', web);

if (typeof nodeModule.register === 'function') {
  const hook = `
    import { readFile } from 'node:fs/promises';
    export async function load(url, context, next) {
      if (url.startsWith(${JSON.stringify(js.href)}) && url.endsWith('.js')) {
        return { format: 'module', source: await readFile(new URL(url)), shortCircuit: true };
      }
      return next(url, context);
    }`;
  nodeModule.register(`data:text/javascript,${encodeURIComponent(hook)}`);
}

/** The client's module at `path` under js/ ('i18n.js', 'locales/en.js'). */
export const clientModule = (path) => import(new URL(path, js).href);
