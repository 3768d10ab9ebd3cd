// What both tutorial pages do (the lesson, index.html, and the companion, companion.html; their
// entries lesson.js and companion.js name the page): send a link that names the other page's
// section there, number the sections, read the settings from the URL, keep the permalink and the
// offline copy, load posenc's WebAssembly and mount the page's sections. Each section computes its
// numbers and pictures through posenc's API.
import '../styles.css';
import { loadPosenc } from '../../bindings/js/index.js';
import { byId, h, labelCellsByHeader } from '../../widgets/dom.js';
import { downloadBlob } from '../../widgets/export.js';
import { mountSections } from './mount-schedule.js';
import { LINK_LIMIT, SettingsState } from '../../widgets/state.js';
import { providePosenc } from '../../widgets/elements/engine.js';
import { otherPage, sectionIds, settingKeys } from './pages.js';
/** A page's file in this build: the folder's, or the single file's (they link by file name). */
const SINGLE_FILE = import.meta.env.MODE.startsWith('single');
const fileOf = (page) => (SINGLE_FILE ? page.singleFile : page.file);

/**
 * Checks that the page's <section> elements are its modules, in the same order (pages.js is the
 * one statement of the order): a section without a module, or a module without a section, is a bug.
 */
function checkSectionOrder(page) {
  const elements = [...document.querySelectorAll('main > section[id]')].map((element) => element.id);
  const modules = page.sections.map((section) => section.id);
  if (elements.join() !== modules.join())
    throw new Error(`${fileOf(page)} has the sections ${elements.join(', ')}; its modules are ${modules.join(', ')}`);
}

/**
 * The query split into this page's settings (and anything unknown, which readQuery reports) and
 * the other page's, which this page does not use and does not report: a link from before the
 * split names settings of both pages.
 */
function splitQuery(query, other) {
  const keys = settingKeys(other);
  const own = [];
  const others = [];
  // Pair by pair, as written: readQuery reports what is wrong with the text of this page's own.
  for (const pair of query.replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const [key] = new URLSearchParams(pair).keys();
    (keys.has(key) ? others : own).push(pair);
  }
  return { own: own.join('&'), others: others.join('&') };
}

/**
 * Where a link belongs, if not here: the other page when its #fragment names one of that page's
 * sections, or when it has no fragment and sets only the other page's settings. Such links come
 * from before the split, when one page (index.html) held every section.
 */
function belongsElsewhere(page, { own, others }) {
  const other = otherPage(page);
  if (location.hash.length > 1) return sectionIds(other).has(location.hash.slice(1));
  return others !== '' && own === '';
}

/**
 * The links to the other page (a.other-page) carry the other page's settings from this page's
 * link, so that a link from before the split loses nothing on the way.
 */
function carryToOtherPage(others) {
  if (!others) return;
  for (const link of document.querySelectorAll('a.other-page')) {
    const url = new URL(link.href);
    url.search = others;
    link.href = url.href;
  }
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

async function main(page) {
  // A link for the other page goes there, query and fragment kept, before anything mounts.
  const query = splitQuery(location.search || savedSettings(), otherPage(page));
  const goToOtherPage = () => location.replace(`./${fileOf(otherPage(page))}${location.search}${location.hash}`);
  if (belongsElsewhere(page, query)) {
    goToOtherPage();
    return;
  }
  // The same for a fragment typed or followed later, which does not load the page again.
  window.addEventListener('hashchange', () => {
    if (sectionIds(otherPage(page)).has(location.hash.slice(1))) goToOtherPage();
  });
  // The script runs: the static hint of what to do if it never does (index.html) goes.
  byId('engine-status').textContent = 'Loading posenc…';
  window.addEventListener('error', (event) => showFailure(event.message));
  window.addEventListener('unhandledrejection', (event) => showFailure(String(event.reason?.message ?? event.reason)));
  // The page's own wide tables become cards in a narrow box (tables.css); the sections label theirs.
  for (const table of document.querySelectorAll('table.stacks')) labelCellsByHeader(table);
  numberSections();
  checkSectionOrder(page);
  const { sections } = page;
  carryToOtherPage(query.others);

  const state = new SettingsState(Object.assign({}, ...sections.map((section) => section.settings)));
  // The messages about the link stay in view while the address bar (writeNow, below) and the
  // permalink change to the settings in effect.
  showProblems(state.readQuery(query.own));
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
    showProblems(state.readQuery(splitQuery(location.search, otherPage(page)).own));
    state.writeNow();
  });
  if (SINGLE_FILE) byId('offline-copy').hidden = true;
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

/** Mounts a page of pages.js (LESSON or COMPANION): what each page's entry script does. */
export function mountPage(page) {
  main(page).catch((error) => {
    showFailure(error.message);
    console.error(error);
  });
}
