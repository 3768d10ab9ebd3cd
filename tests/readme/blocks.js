// The code blocks of the documentation (README.md and every docs/*.md page), for the tests that
// run them. One reader for every page: each block with its page, language, text, line and the
// HTML comment right above its fence, if any: `<!-- file: name -->` (the block is that file of a
// browser example) or `<!-- tested by: path -->` (the test at path checks it). A page whose
// blocks another test runs says so before its first block: `<!-- blocks tested by: path -->`.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The documentation pages, relative to the repository root: README.md, then docs/*.md. */
export function docPages() {
  const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
  return ['README.md', ...docs.sort().map((name) => `docs/${name}`)];
}

const lines = (page) => readFileSync(join(ROOT, page), 'utf8').split('\n');

/** Every fenced block of `page`: `{ page, lang, code, file, testedBy, line }` (line: 1-based, of the opening fence). */
export function pageBlocks(page) {
  const text = lines(page);
  const blocks = [];
  for (let i = 0; i < text.length; i++) {
    const fence = /^```(\w*)\s*$/.exec(text[i]);
    if (!fence) continue;
    const end = text.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${page}:${i + 1}: unclosed code block`);
    const above = text[i - 1] ?? '';
    blocks.push({
      page,
      lang: fence[1],
      code: `${text.slice(i + 1, end).join('\n')}\n`,
      file: /^<!-- file: (\S+) -->$/.exec(above)?.[1],
      testedBy: /^<!-- tested by: (\S+) -->$/.exec(above)?.[1],
      line: i + 1,
    });
    i = end;
  }
  return blocks;
}

/**
 * The tests a page declares for all its blocks (`<!-- blocks tested by: a, b -->` before its
 * first block), as paths relative to the root; empty when the page declares none.
 */
export function pageTests(page) {
  const text = lines(page);
  const firstFence = text.findIndex((line) => line.startsWith('```'));
  const head = firstFence < 0 ? text : text.slice(0, firstFence);
  const declared = head.map((line) => /^<!-- blocks tested by: (.+) -->$/.exec(line)?.[1]).filter(Boolean);
  return declared.flatMap((list) => list.split(',').map((path) => path.trim()));
}

/** The one block labelled `<!-- file: name -->`, on whichever page it is. */
export function labelledFile(name) {
  const found = docPages().flatMap((page) => pageBlocks(page).filter((block) => block.file === name));
  if (found.length !== 1) throw new Error(`the documentation has ${found.length} blocks labelled file: ${name}`);
  return found[0].code;
}
