// What each framework app publishes for the test (written into the app beside its components, and
// loaded by the page apart from them): once posenc is loaded and every <posenc-pe-heatmap> on the
// page has drawn its current settings, the tables they drew (in page order) on window.__posenc,
// with where posenc found its wasm; or, as its error, the problems the elements reported with
// the settings they were given, or that none ever drew.
import { sharedPosenc } from 'posenc/widgets';

const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
const DEADLINE_MS = 10_000;

export async function publishDrawn() {
  try {
    const p = await sharedPosenc();
    const started = performance.now();
    let elements = [];
    while (elements.length === 0 || elements.some((element) => !element.table)) {
      if (performance.now() - started > DEADLINE_MS) {
        throw new Error(`no table drawn within ${DEADLINE_MS / 1000} s by ${elements.length} <posenc-pe-heatmap>`);
      }
      await frame();
      elements = [...document.querySelectorAll('posenc-pe-heatmap')];
    }
    // An element redraws on the frame after a change (a framework may set a property after the
    // first draw): two frames on, each table is of the element's current settings.
    await frame();
    await frame();
    const problems = elements.flatMap((element) => element.problems);
    window.__posenc = {
      values: elements.flatMap((element) => Array.from(element.table.values)),
      settings: elements.map((element) => element.settings),
      variant: p.variant,
      wasmSource: p.wasmSource,
      ...(problems.length > 0 && { error: `the elements reported: ${problems.join(' | ')}` }),
    };
  } catch (error) {
    window.__posenc = { error: String(error?.message ?? error) };
  }
}
