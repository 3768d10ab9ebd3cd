// posenc/widgets: registers the posenc custom elements. The first element on a page loads posenc
// (the .wasm by URL as the default entry finds it, the inline chunk as its fallback) and every
// element shares that one instance. One <script type="module" src=".../widgets.js"> is all a page needs.
import { makeLoadPosenc } from '../../../bindings/js/load.js';
import { findWasmOrInline } from '../../../bindings/js/wasm-source-fallback.js';
import { setPosencLoader } from './engine.js';
import { PeHeatmap } from './pe-heatmap.js'; // registers <posenc-pe-heatmap>
import { RopeHeatmap } from './rope-heatmap.js'; // registers <posenc-rope-heatmap>
import { Vectors2d } from './vectors-2d.js'; // registers <posenc-vectors-2d>
import { WorkedExample } from './worked-example.js'; // registers <posenc-worked-example>
import { Attention } from './attention.js'; // registers <posenc-attention>
import { Wavelengths } from './wavelengths.js'; // registers <posenc-wavelengths>
import { Rotation } from './rotation.js'; // registers <posenc-rotation>
import { Compare } from './compare.js'; // registers <posenc-compare>

const loadPosenc = makeLoadPosenc(findWasmOrInline);
setPosencLoader(() => loadPosenc());

export { providePosenc, sharedPosenc } from './engine.js';
export { Attention, Compare, PeHeatmap, RopeHeatmap, Rotation, Vectors2d, Wavelengths, WorkedExample };
