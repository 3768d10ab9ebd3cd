// posenc/widgets: registers the posenc custom elements. The first element on a page loads posenc
// through the package's default entry (the .wasm by URL, the inline chunk as its fallback;
// bundled, that entry stays external: one copy of the JS layer per app) and every element
// shares that one instance, which sharedPosenc() hands to the app too. One <script type="module" src=".../widgets.js"> is all a page needs.
import { loadPosenc } from '../bindings/js/index.js';
import { setPosencLoader } from './elements/engine.js';
import { PeHeatmap } from './elements/pe-heatmap.js'; // registers <posenc-pe-heatmap>
import { RopeHeatmap } from './elements/rope-heatmap.js'; // registers <posenc-rope-heatmap>
import { Vectors2d } from './elements/vectors-2d.js'; // registers <posenc-vectors-2d>
import { WorkedExample } from './elements/worked-example.js'; // registers <posenc-worked-example>
import { Attention } from './elements/attention.js'; // registers <posenc-attention>
import { Wavelengths } from './elements/wavelengths.js'; // registers <posenc-wavelengths>
import { Rotation } from './elements/rotation.js'; // registers <posenc-rotation>
import { Compare } from './elements/compare.js'; // registers <posenc-compare>

setPosencLoader(() => loadPosenc());

export { providePosenc, sharedPosenc } from './elements/engine.js';
export { Attention, Compare, PeHeatmap, RopeHeatmap, Rotation, Vectors2d, Wavelengths, WorkedExample };
