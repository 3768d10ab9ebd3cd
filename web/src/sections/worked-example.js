// Jaitly's worked example (d = 4, "The" at position 0, "cat" at position 1): the tables are the
// <posenc-worked-example> element; this section binds its URL settings to the element's
// attributes and keeps the controls and the note under the tables.
import { controlRow } from '../../../widgets/controls.js';
import { byId, h } from '../../../widgets/dom.js';
import { bindElements, elementControls, elementSettings } from '../element-settings.js';
import { exact, SEED_EMBEDDINGS, WorkedExample } from '../../../widgets/elements/worked-example.js';

export const id = 'worked-example';

/** The URL setting of each of the element's attributes. */
const ATTRIBUTES = { 'we.the': 'the', 'we.cat': 'cat' };

export const settings = elementSettings(WorkedExample, ATTRIBUTES);

export function mount({ state }) {
  const root = byId('worked-example-demo');
  const figure = document.createElement('posenc-worked-example');
  figure.className = 'beside'; // on a wide screen, beside the section's text (styles.css)
  bindElements(state, ATTRIBUTES, figure);
  const note = h('p', { class: 'result', id: 'we-note' });
  root.append(controlRow(...elementControls(WorkedExample, ATTRIBUTES, state)), figure, note);

  /** The note, from the numbers the element drew. */
  function drawNote() {
    const { pe, sums } = figure.values ?? {};
    if (!pe) return;
    const cos001 = pe[1 * 4 + 3];
    const catSum3 = sums[1 * 4 + 3];
    const postEmbeddings = Object.entries(ATTRIBUTES).every(([key, name]) =>
      state.get(key).every((v, k) => v === SEED_EMBEDDINGS[name][k]),
    );
    note.textContent = postEmbeddings
      ? `Jaitly’s post truncated cos(0.01) = ${exact(cos001)} to 0.999, so its last sum 0.6 + ${exact(cos001)} = ${exact(catSum3)} appears as 1.599; ` +
        'its other values are correctly rounded. And 0.4 + 0.009999833 = 0.4099998 is the sum’s exact value (0.40999983…) to seven digits, not a float32 rounding.'
      : `With your embeddings, “cat”’s last entry is ${exact(state.get('we.cat')[3])} + cos(0.01) = ${exact(catSum3)} (cos(0.01) = ${exact(cos001)}, not 0.999).`;
  }

  figure.addEventListener('posenc-change', drawNote);
}
