// A 2-D vector plot: arrows in a square, equally scaled coordinate system (so angles and
// lengths look right), with a grid, optional circles (e.g. the unit circle) and labels.
import { h, s } from '../dom.js';
import { formatSig } from '../format.js';
import { createFrame, linearAxisTicks } from './axes.js';

const SIZE = 400;
const HEAD = 12; // arrowhead length in viewBox units
const LABEL_CHAR_WIDTH = 9.5; // width of a 15-px bold label character, when the text cannot be measured
const LABEL_HEIGHT = 16;

/** Moves a centred label horizontally so that all of it lies inside the square. */
function keepInside(label) {
  const measured = label.getComputedTextLength(); // 0 while the plot is not rendered
  const half = (measured || label.textContent.length * LABEL_CHAR_WIDTH) / 2 + 3; // + the white halo
  const x = Number(label.getAttribute('x'));
  label.setAttribute('x', Math.min(SIZE - half, Math.max(half, x)).toFixed(2));
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
  const frame = createFrame({ xLabel, yLabel });
  frame.area.classList.add('vectors-area');
  frame.area.setAttribute('role', 'img');
  frame.area.append(svg);
  const caption = h('figcaption', { class: 'plot-summary' });
  const element = h(
    'figure',
    { class: 'plot vectors', dataset: { plot: name } },
    h('div', { class: 'plot-toolbar' }, h('span', { class: 'plot-title' }, title)),
    frame.element,
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
        const dx = x1 - x0;
        const dy = y1 - y0;
        const norm = Math.hypot(dx, dy) || 1;
        // Beyond the tip; keepInside() below moves it back inside the square if it sticks out.
        const x = x1 + (dx / norm) * 14;
        const y = Math.min(SIZE - 4, Math.max(LABEL_HEIGHT, y1 + (dy / norm) * 14 + 5));
        group.append(
          s(
            'text',
            {
              x: x.toFixed(2),
              y: y.toFixed(2),
              fill: arrow.color,
              'text-anchor': 'middle',
              class: 'arrow-label',
            },
            arrow.label,
          ),
        );
      }
      children.push(group);
    }
    svg.replaceChildren(...children);
    for (const label of svg.querySelectorAll('text.arrow-label')) keepInside(label);
    const ticks = linearAxisTicks(-half, half, { count: 4 });
    frame.setXTicks(ticks);
    frame.setYTicks(linearAxisTicks(-half, half, { count: 4, flip: true }));
    const text = summary
      ? summary(arrows)
      : `${title}: ${arrows.map((a) => `${a.label} (${a.to.map((v) => formatSig(v, 3)).join(', ')})`).join('; ')}.`;
    caption.textContent = text;
    frame.area.setAttribute('aria-label', text);
  }

  return { element, draw, svg };
}
