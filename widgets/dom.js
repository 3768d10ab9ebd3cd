// Building DOM nodes without innerHTML: keeps the page free of HTML injection and of inline
// style attributes (styles go through the CSSOM, which a strict Content-Security-Policy allows).

const SVG_NS = 'http://www.w3.org/2000/svg';

function apply(node, props) {
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    else if (key === 'text') node.textContent = value;
    else if (key === 'style') Object.assign(node.style, value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key in node && !key.includes('-') && node.namespaceURI !== SVG_NS) node[key] = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** h('button', { class: 'x', onclick }, 'text', childNode) */
export function h(tag, props = {}, ...children) {
  return append(apply(document.createElement(tag), props), children);
}

/** The same for SVG elements; every prop becomes an attribute. */
export function s(tag, props = {}, ...children) {
  return append(apply(document.createElementNS(SVG_NS, tag), props), children);
}

/** The element with this id; throws a clear error when index.html lacks it. */
export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`page: index.html has no element #${id}`);
  return node;
}

/** Replaces every child of `node`. */
export function replaceChildren(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

/**
 * Gives every body cell of a table its column's header text (data-label), so a narrow screen can
 * show each row as a stacked card with the labels inline (styles.css, table.stacks).
 */
export function labelCellsByHeader(table) {
  const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
  for (const row of table.querySelectorAll('tbody tr')) {
    [...row.children].forEach((cell, i) => {
      cell.dataset.label = headers[i] ?? '';
    });
  }
  return table;
}

/** A <pre> of code or output: focusable, so a keyboard can scroll it when it is wider than its box. */
export function pre(props = {}, ...children) {
  return h('pre', { tabindex: 0, ...props }, ...children);
}
