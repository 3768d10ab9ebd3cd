// The widgets gallery (web/widgets.html): the posenc elements with their attributes, loaded
// through the widgets entry alone, as another site would load them.
import '../styles.css';
import { sharedPosenc } from '../../widgets/elements/engine.js';
import '../../widgets/index.js';

const status = document.getElementById('engine-status');
const pick = document.getElementById('gallery-pick');
document.addEventListener('posenc-pick', (event) => {
  if (event.detail) pick.textContent = event.detail.text;
});

/** Marks the page ready (for the tests) once every element drew its first picture. */
async function whenDrawn() {
  const elements = [...document.querySelectorAll('main [id^="gallery-"]')].filter((node) =>
    node.localName.startsWith('posenc-'),
  );
  await Promise.all(
    elements.map((node) => new Promise((resolve) => node.addEventListener('posenc-change', resolve, { once: true }))),
  );
  requestAnimationFrame(() => {
    document.documentElement.dataset.ready = 'true';
  });
}

const drawn = whenDrawn();
sharedPosenc().then(
  (posenc) => {
    status.textContent = `Every element below is computed in your browser by posenc (${posenc.variant === 'simd' ? 'SIMD' : 'scalar'} WebAssembly build).`;
  },
  (error) => {
    status.textContent = `posenc could not be loaded: ${error.message}`;
  },
);
await drawn;
