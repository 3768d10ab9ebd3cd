// The order and pacing of the sections' mounts: the sections in or near the reader's view first
// (the top of the page, or the section a link's #fragment opens at), then the rest in page order,
// each mount (its static TeX, then its controls and figures) in a task of its own, with a yield
// to the browser between two, so the first pictures are painted early and input and painting get
// their turn while the rest of the page mounts.
import { h } from '../../widgets/dom.js';
import { redrawsSettled } from '../../widgets/schedule.js';
import { renderStaticTex } from './math.js';

/** A message to this page: a new task, without setTimeout's 4 ms clamp. */
function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/**
 * Resolves in a task after the animation frames that drew a section's first pictures (coalesced
 * to them, widgets/schedule.js, a frame's budget at a time) were run: they are painted before the
 * next section mounts, so no frame draws the pictures of many sections at once.
 */
async function afterSectionDrawn() {
  await new Promise((resolve) => requestAnimationFrame(resolve));
  await redrawsSettled();
  if (globalThis.scheduler?.yield) await globalThis.scheduler.yield();
  else await nextTask();
}

const nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

/** Whether `element` is within a screen's height of the viewport, as the page is laid out now. */
function nearView(element) {
  const box = element.getBoundingClientRect();
  return box.bottom > -innerHeight && box.top < 2 * innerHeight;
}

/** `sections` reordered: those whose <section> is near the viewport first, each group in page order. */
export function mountOrder(sections) {
  const near = sections.filter((section) => nearView(document.getElementById(section.id)));
  return [...near, ...sections.filter((section) => !near.includes(section))];
}

/**
 * Mounts each section once, in mountOrder, a task each. A section whose mount throws shows why
 * in its place and the others still mount. <section data-mounted> says a section mounted
 * ('true') or failed ('failed'); <html data-ready="true"> is set once every section has, and
 * the frame after their last draws was painted. Resolves when that is set.
 */
export async function mountSections(sections, context) {
  const order = mountOrder(sections);
  for (const section of order) {
    const element = document.getElementById(section.id);
    const started = performance.now();
    try {
      renderStaticTex(element);
      section.mount(context);
      element.dataset.mounted = 'true';
    } catch (error) {
      element.dataset.mounted = 'failed';
      element.append(h('p', { class: 'section-error', role: 'alert' }, `This section failed: ${error.message}`));
      console.error(error);
    }
    performance.measure(`mount ${section.id}`, { start: started, end: performance.now() });
    await afterSectionDrawn();
    performance.measure(`draw ${section.id}`, { start: started, end: performance.now() });
  }
  await nextPaint();
  document.documentElement.dataset.ready = 'true';
}
