// A QR code of a course's invite link, for a projector: encoded by Debian's qrcode-generator (a
// classic script the server serves from the package, when installed, under /vendor/qrcode/),
// drawn here as an SVG of dark squares on white, which phones' cameras read in dark mode too.

let loading = null;

/** The encoder (`window.qrcode`), fetched once; null when the server has none. */
function encoder() {
  loading ??= new Promise((resolve) => {
    if (window.qrcode) { resolve(window.qrcode); return; }
    const script = document.createElement('script');
    script.src = '/vendor/qrcode/qrcode.js';
    script.onload = () => resolve(window.qrcode || null);
    script.onerror = () => { loading = null; resolve(null); };
    document.head.append(script);
  });
  return loading;
}

const SVG = 'http://www.w3.org/2000/svg';

/** An `<svg role="img">` of `text`'s QR code named `label`, or null when it cannot be drawn. */
export async function qrCode(text, label) {
  const qrcode = await encoder();
  if (!qrcode) return null;
  const code = qrcode(0, 'M'); // the smallest version that holds the text; 15% may be lost and still read
  code.addData(text);
  code.make();
  const count = code.getModuleCount();
  const quiet = 4; // the blank border readers need, in modules
  const size = count + quiet * 2;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('class', 'qr-code');
  svg.setAttribute('shape-rendering', 'crispEdges');
  let path = '';
  for (let row = 0; row < count; row += 1) {
    for (let column = 0; column < count; column += 1) {
      if (code.isDark(row, column)) path += `M${column + quiet} ${row + quiet}h1v1h-1z`;
    }
  }
  const background = document.createElementNS(SVG, 'rect');
  background.setAttribute('width', String(size));
  background.setAttribute('height', String(size));
  background.setAttribute('fill', '#fff');
  const squares = document.createElementNS(SVG, 'path');
  squares.setAttribute('d', path);
  squares.setAttribute('fill', '#000');
  svg.append(background, squares);
  return svg;
}
