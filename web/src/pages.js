// The tutorial's two pages and their sections, in page order: the lesson (index.html, the front
// page) and the advanced companion (companion.html). Each page's entry mounts its own list; each
// page also knows the other's, so a link naming a section or a setting of the other page (a link
// from before the split, when one page held every section) lands there (page.js).
import * as bigPicture from './sections/big-picture.js';
import * as bridge from './sections/bridge.js';
import * as comparison from './sections/comparison.js';
import * as dimensions from './sections/dimensions.js';
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

/**
 * A page: its file in the folder build (web/site), its file in the single-file build
 * (web/site/single), and its section modules in the order of its <section> elements.
 */
export const LESSON = {
  file: 'index.html',
  singleFile: 'posenc-tutorial.html',
  sections: [order, bigPicture, naive, sinusoidal, tokens2d, workedExample, relativeDistance, bridge, rope, ropeBase],
};

export const COMPANION = {
  file: 'companion.html',
  singleFile: 'posenc-companion.html',
  sections: [comparison, family, trainedModels, longContext, halfPrecision, gpuPrecision, images, dimensions, facts],
};

/** The other page of the two. */
export function otherPage(page) {
  return page === LESSON ? COMPANION : LESSON;
}

/** The ids of a page's sections (the companion's: those that moved there from the one long page). */
export function sectionIds(page) {
  return new Set(page.sections.map((section) => section.id));
}

/** The URL setting keys of a page's sections. */
export function settingKeys(page) {
  return new Set(page.sections.flatMap((section) => Object.keys(section.settings)));
}
