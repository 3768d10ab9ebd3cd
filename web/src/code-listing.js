// A code listing that the page reproduces exactly (the posts' PyTorch code, with the page's
// settings): closed by default, so that the lesson shows what it computes, and the code one
// click away. Its title is the summary that opens it.
import { h, pre } from '../../widgets/dom.js';

/** A closed <details> around `code` (a <code> element), summarised by `title` (an inline element). */
export function codeListing(title, code) {
  return h('details', { class: 'code-block code-listing' }, h('summary', {}, title), pre({}, code));
}
