// Typesetting with KaTeX, bundled with its CSS and fonts (no request leaves the page's origin).
// katex.render builds DOM nodes and sets styles through the CSSOM, so it works under a
// Content-Security-Policy without 'unsafe-inline'.
import katex from 'katex';
import 'katex/dist/katex.min.css';
import { h } from '../../widgets/dom.js';

/**
 * Typesets `source` into `node` (replacing its content). `breakable` sets a display formula in
 * display style but as inline math, which the browser may break after a top-level relation or
 * operator (=, +) when the line is too narrow, so a long formula wraps on a phone instead of
 * running off its box (KaTeX's display mode is one unbreakable line).
 */
export function renderTex(node, source, { display = false, breakable = false } = {}) {
  const [text, displayMode] = breakable ? [`\\displaystyle ${source}`, false] : [source, display];
  katex.render(text, node, { displayMode, throwOnError: false, output: 'htmlAndMathml' });
  node.classList.toggle('breakable', breakable);
  return node;
}

/** A new element holding typeset `source`. */
export function tex(source, { display = false, tag = display ? 'div' : 'span', className } = {}) {
  return renderTex(h(tag, { class: ['math', className] }), source, { display });
}

/** Renders every element with a data-tex attribute below `root` (formulas written in index.html). */
export function renderStaticTex(root) {
  for (const node of root.querySelectorAll('[data-tex]')) {
    renderTex(node, node.dataset.tex, {
      display: node.dataset.display !== undefined,
      breakable: node.dataset.breakable !== undefined,
    });
  }
}
