// A 2-D vector plot: arrows in a square, equally scaled coordinate system (so angles and
// lengths look right), with a grid, optional circles (e.g. the unit circle) and labels.
import { h, s } from '../dom.js';
import { formatSig } from '../format.js';
import { createPlotBox, linearAxisTicks } from './axes.js';

const SIZE = 400;
const HEAD = 12; // arrowhead length in viewBox units
const LABEL_CHAR_WIDTH = 9.5; // width of a 15-px bold label character, when the text cannot be measured
const LABEL_HEIGHT = 16;

/** A label's box [left, top, right, bottom] in viewBox units, centred on x with its baseline at y. */
function labelBox(x, y, width) {
  return [x - width / 2 - 3, y - LABEL_HEIGHT + 2, x + width / 2 + 3, y + 5]; // + the halo
}

function overlapArea(a, b) {
  return (
    Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]))
  );
}

/** How many of `segments` ([x0, y0, x1, y1]) pass through `box` (sampled along each segment). */
function crossings(box, segments) {
  let count = 0;
  for (const [x0, y0, x1, y1] of segments) {
    for (let k = 0; k <= 24; k++) {
      const [x, y] = [x0 + ((x1 - x0) * k) / 24, y0 + ((y1 - y0) * k) / 24];
      if (x > box[0] && x < box[2] && y > box[1] && y < box[3]) {
        count++;
        break;
      }
    }
  }
  return count;
}

/**
 * Places each label near its arrow's tip where it overlaps no label placed before it and crosses
 * as few arrows as it can, inside the square: a greedy choice among candidate spots (beyond the
 * tip first, then beside it, then around it), thick arrows' labels first.
 * labels: [{ node, tip: [x, y], direction: [dx, dy] (unit), priority }], in viewBox units.
 */
function placeLabels(labels, segments) {
  const placed = [];
  for (const label of [...labels].sort((a, b) => b.priority - a.priority)) {
    const measured = label.node.getComputedTextLength(); // 0 while the plot is not rendered
    const width = measured || label.node.textContent.length * LABEL_CHAR_WIDTH;
    const [tx, ty] = label.tip;
    const [ux, uy] = label.direction;
    const spots = [];
    for (const along of [14, 30])
      for (const side of [0, 1, -1, 2, -2])
        spots.push([tx + ux * along - uy * side * 16, ty + uy * along + ux * side * 16]);
    for (let k = 0; k < 16; k++) {
      const angle = (k * Math.PI) / 8;
      for (const radius of [22, 40, 60]) spots.push([tx + radius * Math.cos(angle), ty + radius * Math.sin(angle)]);
    }
    let best = null;
    spots.forEach(([cx, cy], rank) => {
      // the spot is the label's centre; inside the square
      const x = Math.min(SIZE - width / 2 - 3, Math.max(width / 2 + 3, cx));
      const y = Math.min(SIZE - 5, Math.max(LABEL_HEIGHT, cy + 5));
      const box = labelBox(x, y, width);
      const cost =
        placed.reduce((sum, other) => sum + overlapArea(box, other), 0) * 100 +
        crossings(box, segments) * 400 +
        rank +
        Math.hypot(x - cx, y - cy - 5);
      if (!best || cost < best.cost) best = { cost, x, y, box };
    });
    label.node.setAttribute('x', best.x.toFixed(2));
    label.node.setAttribute('y', best.y.toFixed(2));
    placed.push(best.box);
  }
}

function arrowHead(x0, y0, x1, y1) {
  const angle = Math.atan2(y1 - y0, x1 - x0);
  const length = Math.hypot(x1 - x0, y1 - y0);
  const head = Math.min(HEAD, length * 0.6);
  const left = angle + Math.PI - 0.45;
  const right = angle + Math.PI + 0.45;
  return [
    [x1, y1],
    [x1 + head * Math.cos(left), y1 + head * Math.sin(left)],
    [x1 + head * Math.cos(right), y1 + head * Math.sin(right)],
  ]
    .map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`)
    .join(' ');
}

/** options: name, title, summary(arrows) => text, xLabel, yLabel */
export function createVectorPlot({ name, title, summary, xLabel = 'x₀', yLabel = 'x₁' }) {
  const svg = s('svg', {
    class: 'vectors-svg',
    viewBox: `0 0 ${SIZE} ${SIZE}`,
    'aria-hidden': 'true',
    focusable: 'false',
  });
  const plotBox = createPlotBox({ xLabel, yLabel });
  plotBox.area.classList.add('vectors-area');
  plotBox.area.setAttribute('role', 'img');
  plotBox.area.append(svg);
  const caption = h('figcaption', { class: 'plot-summary' });
  const element = h(
    'figure',
    // The figure's name: Chromium takes none from its figcaption.
    { class: 'plot vectors', dataset: { plot: name }, 'aria-label': title },
    h('div', { class: 'plot-toolbar' }, h('span', { class: 'plot-title' }, title)),
    plotBox.element,
    caption,
  );

  /**
   * arrows: [{ from: [x, y], to: [x, y], color, dash?, width?, label?, role? }]
   * circles: [{ radius, className? }]   extent: half-width of the shown square (auto if absent)
   * arcs: [{ radius, from: angle, to: angle, color }]  (angles in radians, counter-clockwise)
   * dots: [{ at: [x, y], color }]  small markers (e.g. the path of a rotating vector)
   */
  function draw({ arrows, circles = [], arcs = [], dots = [], extent }) {
    const reach = Math.max(
      1e-9,
      ...arrows.flatMap((a) => [...a.from, ...a.to].map(Math.abs)),
      ...circles.map((c) => c.radius),
    );
    const half = extent ?? Math.ceil(reach * 1.15 * 4) / 4;
    const scale = SIZE / (2 * half);
    const px = (x) => SIZE / 2 + x * scale;
    const py = (y) => SIZE / 2 - y * scale;
    Object.assign(svg.dataset, { extent: String(half) });

    const children = [
      s('line', { class: 'grid-axis', x1: 0, x2: SIZE, y1: py(0), y2: py(0) }),
      s('line', { class: 'grid-axis', x1: px(0), x2: px(0), y1: 0, y2: SIZE }),
    ];
    for (const circle of circles) {
      children.push(
        s('circle', {
          class: circle.className ?? 'guide-circle',
          cx: px(0),
          cy: py(0),
          r: (circle.radius * scale).toFixed(2),
        }),
      );
    }
    for (const arc of arcs) {
      const r = arc.radius * scale;
      const [a0, a1] = [arc.from, arc.to];
      const sweep = a1 >= a0 ? 0 : 1;
      const large = Math.abs(a1 - a0) % (2 * Math.PI) > Math.PI ? 1 : 0;
      const point = (a) => `${(px(0) + r * Math.cos(a)).toFixed(2)},${(py(0) - r * Math.sin(a)).toFixed(2)}`;
      children.push(
        s('path', {
          class: 'angle-arc',
          d: `M${point(a0)}A${r.toFixed(2)},${r.toFixed(2)} 0 ${large} ${sweep} ${point(a1)}`,
          stroke: arc.color,
        }),
      );
    }
    for (const dot of dots) {
      children.push(
        s('circle', {
          class: 'trail-dot',
          cx: px(dot.at[0]).toFixed(2),
          cy: py(dot.at[1]).toFixed(2),
          r: 2.5,
          fill: dot.color,
        }),
      );
    }
    const labels = [];
    const segments = [];
    for (const arrow of arrows) {
      const [x0, y0] = [px(arrow.from[0]), py(arrow.from[1])];
      const [x1, y1] = [px(arrow.to[0]), py(arrow.to[1])];
      const group = s(
        'g',
        {
          class: 'arrow',
          'data-label': arrow.label ?? '',
          'data-role': arrow.role ?? '',
          'data-from': arrow.from.join(','),
          'data-to': arrow.to.join(','),
        },
        s('line', {
          x1: x0.toFixed(2),
          y1: y0.toFixed(2),
          x2: x1.toFixed(2),
          y2: y1.toFixed(2),
          stroke: arrow.color,
          'stroke-width': arrow.width ?? 2.5,
          'stroke-dasharray': arrow.dash ?? null,
        }),
        s('polygon', { points: arrowHead(x0, y0, x1, y1), fill: arrow.color }),
      );
      if (arrow.label) {
        const norm = Math.hypot(x1 - x0, y1 - y0) || 1;
        const node = s('text', { fill: arrow.color, 'text-anchor': 'middle', class: 'arrow-label' }, arrow.label);
        group.append(node);
        labels.push({
          node,
          tip: [x1, y1],
          direction: [(x1 - x0) / norm, (y1 - y0) / norm],
          priority: arrow.width ?? 2.5,
        });
      }
      segments.push([x0, y0, x1, y1]);
      children.push(group);
    }
    svg.replaceChildren(...children);
    placeLabels(labels, segments);
    const ticks = linearAxisTicks(-half, half, { count: 4 });
    plotBox.setXTicks(ticks);
    plotBox.setYTicks(linearAxisTicks(-half, half, { count: 4, flip: true }));
    const text = summary
      ? summary(arrows)
      : `${title}: ${arrows.map((a) => `${a.label} (${a.to.map((v) => formatSig(v, 3)).join(', ')})`).join('; ')}.`;
    caption.textContent = text;
    plotBox.area.setAttribute('aria-label', text);
  }

  return { element, draw, svg };
}
