// Tokens in 2-D ('Positional Embeddings Explained': [check, this, out]): the figure is the
// <posenc-vectors-2d> element; this section binds its URL settings to the element's attributes
// and keeps the table of the drawn numbers and the note.
import { controlRow } from '../../../widgets/controls.js';
import { byId, h, labelCellsByHeader } from '../../../widgets/dom.js';
import { elementControls, bindElements, elementSettings } from '../element-settings.js';
import { formatSigText } from '../../../widgets/format.js';
import { Vectors2d } from '../../../widgets/elements/vectors-2d.js';

export const id = 'tokens2d';

/** The URL setting of each of the element's attributes. */
const ATTRIBUTES = Object.fromEntries(Object.keys(Vectors2d.settings).map((name) => [`t2.${name}`, name]));

export const settings = elementSettings(Vectors2d, ATTRIBUTES);

export function mount({ state }) {
  const root = byId('tokens2d-demo');
  const figure = document.createElement('posenc-vectors-2d');
  figure.className = 'beside';
  bindElements(state, ATTRIBUTES, figure);
  const table = h('table', { class: 'numbers stacks', id: 't2-table' });
  // The controls in the tutorial's order: the three vectors, then the first position.
  const order = [...Object.keys(ATTRIBUTES).slice(1), 't2.offset'];
  root.append(
    controlRow(...elementControls(Vectors2d, ATTRIBUTES, state, order)),
    h(
      'div',
      { class: 'side-by-side' },
      figure,
      h(
        'div',
        {},
        h('div', { class: 'table-scroll' }, table),
        h(
          'p',
          { class: 'note' },
          'Dotted: PE(p) = (sin p, cos p), from the origin to the dotted unit circle. Thin: the word’s vector. Dashed: PE(p) again, from the word’s tip. Thick: the sum the transformer receives.',
        ),
      ),
    ),
  );

  /** The table of what the element drew. */
  function drawTable() {
    const rows = figure.vectors;
    if (!rows) return;
    const fmt = ([x, y]) => `(${formatSigText(x, 4)}, ${formatSigText(y, 4)})`;
    table.replaceChildren(
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['word', 'position p', 'word vector', 'PE(p) = (sin p, cos p)', 'sum'].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map(({ word, position, vector, pe, sum }) =>
          h(
            'tr',
            { dataset: { word } },
            h('th', { scope: 'row' }, word),
            h('td', {}, String(position)),
            h('td', {}, fmt(vector)),
            h('td', {}, fmt(pe)),
            h('td', {}, fmt(sum)),
          ),
        ),
      ),
    );
    labelCellsByHeader(table);
  }

  figure.addEventListener('posenc-change', drawTable);
}
