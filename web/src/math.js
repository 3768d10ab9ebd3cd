// Typesetting with KaTeX, bundled with its CSS and fonts (no request leaves the page's origin).
// katex.render builds DOM nodes and sets styles through the CSSOM, so it works under a
// Content-Security-Policy without 'unsafe-inline'.
import katex from 'katex';
import 'katex/dist/katex.min.css';
import { h } from '../../widgets/dom.js';

/** Typesets `source` into `node` (replacing its content). */
export function renderTex(node, source, { display = false } = {}) {
  katex.render(source, node, { displayMode: display, throwOnError: false, output: 'htmlAndMathml' });
  return node;
}

/** A new element holding typeset `source`. */
export function tex(source, { display = false, tag = display ? 'div' : 'span', className } = {}) {
  return renderTex(h(tag, { class: ['math', className] }), source, { display });
}

/** Renders every element with a data-tex attribute below `root` (formulas written in index.html). */
export function renderStaticTex(root) {
  for (const node of root.querySelectorAll('[data-tex]')) {
    renderTex(node, node.dataset.tex, { display: node.dataset.display !== undefined });
  }
}
