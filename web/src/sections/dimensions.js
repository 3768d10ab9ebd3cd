// The sinusoidal table one dimension at a time (<posenc-wavelengths>): chosen dimensions as
// curves over position, low ones fast and high ones slow, with each curve's pair, frequency and
// wavelength listed. The lesson's sinusoidal section shows the whole table as a heatmap; these
// curves have their own table settings here. The dimensions keep the key they had in the lesson.
import { controlRow } from '../../../widgets/controls.js';
import { byId, h } from '../../../widgets/dom.js';
import { bindElements, elementControls, elementSettings } from '../element-settings.js';
import { formatPython as pythonNumber, formatSig } from '../../../widgets/format.js';
import { Wavelengths } from '../../../widgets/elements/wavelengths.js';

export const id = 'dimensions';

/** The URL setting of each of the element's attributes. */
const ATTRIBUTES = {
  'dims.seq': 'seq-len',
  'dims.d': 'd-model',
  'dims.base': 'base',
  'dims.layout': 'layout',
  'pe.dims': 'dims',
};

export const settings = elementSettings(Wavelengths, ATTRIBUTES);

export function mount({ state }) {
  const root = byId('dimensions-demo');
  const dimsPlot = document.createElement('posenc-wavelengths');
  bindElements(state, ATTRIBUTES, dimsPlot);
  const wavelengths = h('ul', { class: 'wavelengths', id: 'pe-wavelengths' });
  const dimsNote = h('p', { class: 'note', id: 'pe-dims-note' });
  const controls = (keys) => elementControls(Wavelengths, ATTRIBUTES, state, keys);
  root.append(
    controlRow(...controls(['dims.seq', 'dims.d', 'dims.base', 'dims.layout'])),
    controlRow(...controls(['pe.dims'])),
    dimsPlot,
    wavelengths,
    dimsNote,
  );

  /** The wavelengths of the curves the element drew, and a note when it moved a dimension. */
  function describeCurves() {
    const { dModel, base } = dimsPlot.settings;
    const curves = dimsPlot.curves;
    const requested = state.get('pe.dims');
    dimsNote.textContent =
      curves.length !== requested.length || curves.some(({ dimension }, i) => dimension !== requested[i])
        ? `Dimensions are 0 … ${dModel - 1} for d_model = ${dModel}; plotting ${curves.map((c) => c.dimension).join(', ')}.`
        : '';
    wavelengths.replaceChildren(
      ...curves.map(({ dimension, pair, fn, frequency, wavelength }) =>
        h(
          'li',
          {},
          `dimension ${dimension} = ${fn} of pair i = ${pair}: frequency ${formatSig(frequency, 4)} rad per position, ` +
            `wavelength 2π·${pythonNumber(base)}^(${2 * pair}/${dModel}) = ${formatSig(wavelength, 5)} positions`,
        ),
      ),
    );
  }

  // The element redraws (once per animation frame) and says so; the list follows its curves.
  dimsPlot.addEventListener('posenc-change', describeCurves);
}
