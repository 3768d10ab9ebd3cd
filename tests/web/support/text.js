// What a page publishes as words: every text node (closed <details> and shadow roots included,
// scripts and styles not) and the attributes a reader or screen reader is given instead of text.

const READ_ATTRIBUTES = ['aria-label', 'aria-description', 'title', 'alt', 'placeholder'];

/** [{ text, where }] for every piece of published text on `page`; `where` names its element. */
export function publishedText(page) {
  return page.evaluate((attributes) => {
    const found = [];
    const name = (element) => `${element.localName}${element.id ? `#${element.id}` : ''}`;
    const walk = (root) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.nodeType === Node.TEXT_NODE) {
          const parent = node.parentElement;
          if (parent && !parent.closest('script, style') && node.data.trim())
            found.push({ text: node.data.replace(/\s+/g, ' '), where: name(parent) });
          continue;
        }
        for (const attribute of attributes) {
          const value = node.getAttribute(attribute);
          if (value) found.push({ text: value, where: `${name(node)}@${attribute}` });
        }
        if (node.shadowRoot) walk(node.shadowRoot);
      }
    };
    walk(document.documentElement);
    return found;
  }, READ_ATTRIBUTES);
}
