// The three encodings side by side: the figure is the <posenc-compare> element (naive, sinusoidal
// and RoPE on the same token contents and one colour scale, one crosshair, the m − n spreads and
// the all-ones trap); this section binds its URL settings to the element's attributes and adds
// the re-roll button. Typing your own q or k switches the contents to them.
import { controlRow, rerollButton } from '../../../widgets/controls.js';
import { byId } from '../../../widgets/dom.js';
import { bindElements, elementControls, elementSettings } from '../element-settings.js';
import { Compare } from '../../../widgets/elements/compare.js';

export const id = 'comparison';

/** The URL setting of each of the element's attributes. */
const ATTRIBUTES = {
  'cmp.seq': 'seq-len',
  'cmp.d': 'd-model',
  'cmp.base': 'base',
  'cmp.metric': 'metric',
  'cmp.content': 'content',
  'cmp.seed': 'seed',
  'cmp.q': 'q',
  'cmp.k': 'k',
};

export const settings = elementSettings(Compare, ATTRIBUTES);

export function mount({ state }) {
  const root = byId('comparison-demo');
  const figure = document.createElement('posenc-compare');
  bindElements(state, ATTRIBUTES, figure);
  const reroll = rerollButton(state, 'cmp.seed', {
    id: 'cmp-reroll',
    label: 'Re-roll random contents',
    afterwards: () => {
      if (state.get('cmp.content') === 'ones' || state.get('cmp.content') === 'edited') state.set('cmp.content', 'qk');
    },
  });
  const controls = (keys) => elementControls(Compare, ATTRIBUTES, state, keys);
  root.append(
    controlRow(...controls(['cmp.seq', 'cmp.d', 'cmp.base', 'cmp.metric'])),
    controlRow(...controls(['cmp.content']), reroll),
    controlRow(...controls(['cmp.q', 'cmp.k'])),
    figure,
  );
  state.watch(['cmp.q', 'cmp.k'], () => state.set('cmp.content', 'edited'));
}
