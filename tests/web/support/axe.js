// axe-core on a page: the serious and critical violations (what the web tests allow none of).
import { createRequire } from 'node:module';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** [{ id, nodes }] for the serious or critical violations within `context` (a selector; the whole page by default). */
export async function blockingViolations(page, context = null) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async (selector) => {
    const { violations } = await window.axe.run(selector ?? document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  }, context);
}
