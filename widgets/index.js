// posenc/widgets: registers the posenc custom elements. The first element on a page loads posenc
// through the package's default entry (bundled, that entry stays external: one copy of the JS
// layer per app) and every element shares that one instance, which sharedPosenc() hands to the
// app too. One <script type="module" src=".../widgets.js"> is all a page needs.
import { loadPosenc, simdSupported } from '../bindings/js/index.js';
import { inlineWasm } from '../bindings/js/wasm-inline.js';
import { setPosencLoader } from './elements/engine.js';
import { PeHeatmap } from './elements/pe-heatmap.js'; // registers <posenc-pe-heatmap>
import { RopeHeatmap } from './elements/rope-heatmap.js'; // registers <posenc-rope-heatmap>
import { Vectors2d } from './elements/vectors-2d.js'; // registers <posenc-vectors-2d>
import { WorkedExample } from './elements/worked-example.js'; // registers <posenc-worked-example>
import { Attention } from './elements/attention.js'; // registers <posenc-attention>
import { Wavelengths } from './elements/wavelengths.js'; // registers <posenc-wavelengths>
import { Rotation } from './elements/rotation.js'; // registers <posenc-rotation>
import { Compare } from './elements/compare.js'; // registers <posenc-compare>

/**
 * The .wasm by URL, as the default entry finds it; where no URL gives it (a page bundled by
 * esbuild or Rollup, which copy no assets, or widgets.js copied without the .wasm), the bytes of
 * the inline chunk of the build this engine runs, imported only then. Elements run on pages,
 * never in workers, so the lazy chunk costs nothing where the URL works.
 */
async function loadForElements() {
  try {
    return await loadPosenc();
  } catch (urlError) {
    let bytes;
    try {
      bytes = await inlineWasm(simdSupported() ? 'simd' : 'scalar');
    } catch {
      throw urlError; // it names what was tried and the fixes
    }
    return loadPosenc({ wasmBinary: bytes });
  }
}

setPosencLoader(loadForElements);

export { providePosenc, sharedPosenc } from './elements/engine.js';
export { Attention, Compare, PeHeatmap, RopeHeatmap, Rotation, Vectors2d, Wavelengths, WorkedExample };
