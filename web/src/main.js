// The tutorial page: loads posenc's WebAssembly, reads the settings from the URL and mounts
// every section. Each section computes its numbers and pictures through posenc's API.
import '../styles.css';
import { loadPosenc } from '../../bindings/js/index.js';
import { byId, h, labelCellsByHeader } from '../../widgets/dom.js';
import { downloadBlob } from '../../widgets/export.js';
import { mountSections } from './mount-schedule.js';
import { LINK_LIMIT, SettingsState } from '../../widgets/state.js';
import { providePosenc } from '../../widgets/elements/engine.js';
import * as bridge from './sections/bridge.js';
import * as comparison from './sections/comparison.js';
import * as facts from './sections/facts.js';
import * as family from './sections/family.js';
import * as gpuPrecision from './sections/gpu-precision.js';
import * as halfPrecision from './sections/half-precision.js';
import * as images from './sections/images.js';
import * as longContext from './sections/long-context.js';
import * as naive from './sections/naive.js';
import * as order from './sections/order.js';
import * as relativeDistance from './sections/relative-distance.js';
import * as rope from './sections/rope.js';
import * as ropeBase from './sections/rope-base.js';
import * as sinusoidal from './sections/sinusoidal.js';
import * as tokens2d from './sections/tokens2d.js';
import * as trainedModels from './sections/trained-models.js';
import * as workedExample from './sections/worked-example.js';

const MODULES = [
  bridge,
  comparison,
  facts,
  family,
  gpuPrecision,
  halfPrecision,
  images,
  longContext,
  naive,
  order,
  relativeDistance,
  rope,
  ropeBase,
  sinusoidal,
  tokens2d,
  trainedModels,
  workedExample,
];

/**
 * The section modules in the order index.html places their <section> elements: the page's one
 * statement of the order. A section without a module, or a module without a section, is a bug.
 */
function sectionsInPageOrder() {
  const byIdOf = new Map(MODULES.map((module) => [module.id, module]));
  const elements = [...document.querySelectorAll('main > section[id]')];
  const sections = elements.map((element) => {
    const section = byIdOf.get(element.id);
    if (!section) throw new Error(`index.html has a section #${element.id} that no module mounts`);
    return section;
  });
  for (const module of MODULES) {
    if (!elements.some((element) => element.id === module.id))
      throw new Error(`section module ${module.id} has no <section> in index.html`);
  }
  return sections;
}

/**
 * The table of contents: one link per section, in page order, labelled by its heading (its own
 * list numbers the entries). Each heading then gets its number as text, "3. ", not as generated
 * content: a screen reader then announces "3. The sinusoidal encoding", as a reader sees it.
 */
function numberSections() {
  const headings = [...document.querySelectorAll('main > section[id] > h2')];
  byId('toc').replaceChildren(
    ...headings.map((heading) =>
      h('li', {}, h('a', { href: `#${heading.parentElement.id}` }, heading.dataset.toc ?? heading.textContent)),
    ),
  );
  headings.forEach((heading, i) => {
    heading.prepend(h('span', { class: 'section-number' }, `${i + 1}. `));
  });
}

/** The settings an offline copy was downloaded with (its meta element); a link's query wins. */
function savedSettings() {
  return document.querySelector('meta[name="posenc-settings"]')?.content ?? '';
}

/**
 * The offline copy, downloaded with the current settings written into it, so it opens showing
 * what the reader saw. If the copy cannot be fetched, the link downloads it as it is.
 */
async function downloadWithSettings(event, state) {
  const link = event.currentTarget;
  if (link.dataset.fetched) return; // the plain download, after a failure below
  event.preventDefault();
  const attribute = (text) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  try {
    const response = await fetch(link.href);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const html = (await response.text()).replace(
      /<meta name="posenc-settings" content="[^"]*">/,
      `<meta name="posenc-settings" content="${attribute(state.query())}">`,
    );
    downloadBlob(new Blob([html], { type: 'text/html;charset=utf-8' }), link.download);
  } catch {
    link.dataset.fetched = 'failed';
    link.click();
  }
}

function showProblems(problems) {
  const box = byId('url-problems');
  if (problems.length === 0) {
    box.hidden = true;
    return;
  }
  box.replaceChildren(
    h(
      'p',
      {},
      h('strong', {}, 'Some settings in this link could not be used. '),
      'The page uses these values instead:',
    ),
    h(
      'ul',
      {},
      problems.map((problem) => h('li', {}, problem)),
    ),
    h('p', {}, h('a', { href: location.pathname }, 'Open the page with all defaults')),
  );
  box.hidden = false;
}

/** Says which settings the permalink leaves out because the link would be too long (state.link). */
function showLeftOut(leftOut) {
  const note = byId('permalink-note');
  note.hidden = leftOut.length === 0;
  const names = leftOut.map(({ key, length }) => `${key} (${length.toLocaleString('en-US')} characters)`);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  note.textContent = leftOut.length
    ? `The link leaves out ${list}: links of ${LINK_LIMIT.toLocaleString('en-US')} characters or more fail on many servers; it reopens with the ${leftOut.length > 1 ? 'defaults for them' : 'default for it'}.`
    : '';
}

function showFailure(message) {
  const box = byId('page-error');
  box.replaceChildren(h('strong', {}, 'Something went wrong: '), message);
  box.hidden = false;
}

async function main() {
  // The script runs: the static hint of what to do if it never does (index.html) goes.
  byId('engine-status').textContent = 'Loading posenc…';
  window.addEventListener('error', (event) => showFailure(event.message));
  window.addEventListener('unhandledrejection', (event) => showFailure(String(event.reason?.message ?? event.reason)));
  // The page's own wide tables become cards in a narrow box (tables.css); the sections label theirs.
  for (const table of document.querySelectorAll('table.stacks')) labelCellsByHeader(table);
  numberSections();
  const sections = sectionsInPageOrder();

  const state = new SettingsState(Object.assign({}, ...sections.map((section) => section.settings)));
  // The messages about the link stay in view while the address bar (writeNow, below) and the
  // permalink change to the settings in effect.
  showProblems(state.readQuery(location.search || savedSettings()));
  const permalink = byId('permalink');
  state.onWrite((href, leftOut) => {
    permalink.href = href;
    showLeftOut(leftOut);
  });
  state.writeNow();
  // Back and forward within the page (a table-of-contents link adds a history entry) bring back
  // an address the page wrote earlier: the settings follow it, so the address bar never names
  // settings the page does not use.
  window.addEventListener('popstate', () => {
    if (location.search === new URL(state.link(location.href).href).search) return;
    showProblems(state.readQuery(location.search));
    state.writeNow();
  });
  if (import.meta.env.MODE === 'single') byId('offline-copy').hidden = true;
  else
    byId('offline-copy')
      .querySelector('a')
      .addEventListener('click', (event) => downloadWithSettings(event, state));

  const status = byId('engine-status');
  let posenc;
  try {
    posenc = await loadPosenc();
  } catch (error) {
    status.textContent = 'posenc could not be loaded, so nothing on this page can be computed.';
    throw error;
  }
  status.textContent = `Every number and picture below is computed in your browser by posenc (${posenc.variant === 'simd' ? 'SIMD' : 'scalar'} WebAssembly build).`;
  document.documentElement.dataset.posenc = posenc.variant;
  providePosenc(posenc); // the sections' posenc elements share this instance

  await mountSections(sections, { posenc, state });
}

main().catch((error) => {
  showFailure(error.message);
  console.error(error);
});
