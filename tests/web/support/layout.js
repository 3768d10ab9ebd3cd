// Geometry of what the reader sees: boxes ({ left, top, right, bottom, text? }, page pixels, as
// getBoundingClientRect gives them) that must not overlap or leave their container.

/** Whether two boxes share more than half a pixel in both directions. */
export function overlap(p, q) {
  return (
    Math.min(p.right, q.right) - Math.max(p.left, q.left) > 0.5 &&
    Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 0.5
  );
}

/** Every pair of `boxes` that overlaps, as "“a” overlaps “b”". */
export function overlappingPairs(boxes) {
  const found = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++)
      if (overlap(boxes[i], boxes[j])) found.push(`“${boxes[i].text}” overlaps “${boxes[j].text}”`);
  return found;
}

/** Whether `box` lies inside `outer` (to half a pixel). */
export function inside(box, outer) {
  return (
    box.left >= outer.left - 0.5 &&
    box.right <= outer.right + 0.5 &&
    box.top >= outer.top - 0.5 &&
    box.bottom <= outer.bottom + 0.5
  );
}

/**
 * For each visible node `locator` matches (shadow roots included): its plot's name (the
 * closest figure's data-plot), its own box, and for each [key, selector] of `parts` the boxes of
 * the descendants that selector matches, each with its text.
 */
export function boxesWithin(locator, parts) {
  return locator.evaluateAll((nodes, partList) => {
    const box = (node) => {
      const { left, top, right, bottom } = node.getBoundingClientRect();
      return { left, top, right, bottom, text: node.textContent };
    };
    return nodes
      .filter((node) => node.getClientRects().length > 0)
      .map((node) => ({
        plot: node.closest('figure')?.dataset.plot ?? '?',
        own: box(node),
        ...Object.fromEntries(partList.map(([key, selector]) => [key, [...node.querySelectorAll(selector)].map(box)])),
      }));
  }, Object.entries(parts));
}
