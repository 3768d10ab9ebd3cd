// A figure as one PNG, as the reader sees it: title, cells or curves, axes with their ticks and
// labels, the colour bar or series key. Drawn from the live layout (each part at its on-screen
// box), so there is one place that decides where things go: the page's CSS. Buttons, read-outs
// and captions are left out; they are for the page, not the picture.
//
// Parts are leaves of the figure's DOM: <canvas> (copied pixel for pixel, no smoothing), <svg>
// (serialised with the computed styles its CSS gives it, then drawn), and text nodes (drawn in
// their own box, with their element's font and colour; vertical writing is rotated).

const LEFT_OUT = '.plot-actions, .readout, figcaption, .crosshair, [hidden], [aria-hidden="true"].crosshair';
const SVG_STYLE = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-linecap',
  'opacity',
  'vector-effect',
];

/**
 * Image pixels per CSS pixel: at least `least`, and for a heatmap at least one pixel per cell in
 * each direction (its canvas holds one pixel per cell), so no cell is lost; cells are copied
 * without smoothing, so each is a solid block (blocks differ by at most one pixel).
 */
function pixelScale(items, least) {
  const cells = items.find(({ node }) => node instanceof HTMLCanvasElement && node.classList.contains('heatmap-cells'));
  if (!cells || cells.box.width === 0 || cells.box.height === 0) return least;
  return Math.max(least, cells.node.width / cells.box.width, cells.node.height / cells.box.height);
}

/** The figure's drawn parts, each { node, box } (box relative to the figure); text as text nodes. */
function parts(figure) {
  const origin = figure.getBoundingClientRect();
  const relative = (r) => ({ x: r.left - origin.left, y: r.top - origin.top, width: r.width, height: r.height });
  const found = [];
  const walk = (node) => {
    const style = getComputedStyle(node);
    // not drawn: hidden parts, and invisible ones (the copies of tick labels that size an axis)
    if (node.matches(LEFT_OUT) || style.display === 'none' || style.visibility === 'hidden') return;
    if (node instanceof HTMLCanvasElement || node instanceof SVGSVGElement)
      return found.push({ node, box: relative(node.getBoundingClientRect()) });
    for (const child of node.childNodes) {
      if (child.nodeType === Node.ELEMENT_NODE) walk(child);
      else if (child.nodeType === Node.TEXT_NODE && child.data.trim()) {
        const range = document.createRange();
        range.selectNodeContents(child);
        found.push({ node: child, box: relative(range.getBoundingClientRect()) });
      }
    }
  };
  walk(figure);
  return found;
}

/** An <svg> with the styles its stylesheet gives it written onto a copy, loaded as an image. */
function svgImage(svg, width, height) {
  const copy = svg.cloneNode(true);
  const originals = [svg, ...svg.querySelectorAll('*')];
  const copies = [copy, ...copy.querySelectorAll('*')];
  originals.forEach((original, i) => {
    const style = getComputedStyle(original);
    // Presentation attributes, not a style attribute: the page's CSP forbids inline styles.
    for (const property of SVG_STYLE) copies[i].setAttribute(property, style.getPropertyValue(property));
  });
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(copy)], { type: 'image/svg+xml' }));
  const image = new Image();
  return new Promise((resolve, reject) => {
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('figure image: the browser could not draw the SVG'));
    image.src = url;
  }).finally(() => URL.revokeObjectURL(url));
}

function drawText(context, textNode, box) {
  const style = getComputedStyle(textNode.parentElement);
  context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  context.fillStyle = style.color;
  context.textBaseline = 'middle';
  const text = textNode.data.trim();
  if (style.writingMode.startsWith('vertical')) {
    context.save();
    context.translate(box.x + box.width / 2, box.y + box.height / 2);
    context.rotate(-Math.PI / 2);
    context.textAlign = 'center';
    context.fillText(text, 0, 0);
    context.restore();
    return;
  }
  context.textAlign = 'center'; // the text's own box, so alignment is already in it
  context.fillText(text, box.x + box.width / 2, box.y + box.height / 2);
}

/**
 * The figure drawn into a canvas at `scale` or more image pixels per CSS pixel, on `background`
 * (the page's by default; an element in its own theme passes its own).
 */
export async function renderFigure(figure, { scale: least = 2, background } = {}) {
  const items = parts(figure);
  const boxes = items.map(({ box }) => box);
  const scale = pixelScale(items, least);
  const pad = 8; // a margin all round
  const right = Math.max(...boxes.map((b) => b.x + b.width)) + 2 * pad;
  const bottom = Math.max(...boxes.map((b) => b.y + b.height)) + 2 * pad;
  const out = document.createElement('canvas');
  out.width = Math.ceil(right * scale);
  out.height = Math.ceil(bottom * scale);
  const context = out.getContext('2d');
  context.scale(scale, scale);
  context.fillStyle = background || getComputedStyle(document.body).backgroundColor || '#fff';
  context.fillRect(0, 0, right, bottom);
  context.translate(pad, pad);
  context.imageSmoothingEnabled = false; // one block of pixels per heatmap cell
  for (const { node, box } of items) {
    if (node instanceof HTMLCanvasElement) context.drawImage(node, box.x, box.y, box.width, box.height);
    else if (node instanceof SVGSVGElement)
      context.drawImage(await svgImage(node, box.width, box.height), box.x, box.y, box.width, box.height);
    else drawText(context, node, box);
  }
  return out;
}
