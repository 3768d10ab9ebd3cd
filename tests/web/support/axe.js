// axe-core on a page: every violation, and the serious and critical ones the web tests allow none of.
import { createRequire } from 'node:module';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** [{ id, impact, help, nodes }] of axe-core's violations within `within` (a selector; the whole page by default). */
export async function axeViolations(page, within = null) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async (selector) => {
    const context = selector ? { include: [[selector]] } : document;
    const { violations } = await window.axe.run(context, { resultTypes: ['violations'] });
    return violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')}: ${n.failureSummary.split('\n').slice(1).join(' ')}`),
    }));
  }, within);
}

/** The serious and critical ones among `violations`. */
export function blocking(violations) {
  return violations.filter(({ impact }) => impact === 'serious' || impact === 'critical');
}
