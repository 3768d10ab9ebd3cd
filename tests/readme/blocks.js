// The code blocks of the README (and of the docs/ pages), for the tests that run them: each with
// its language, its text and, where an HTML comment `<!-- file: name -->` precedes it, the file
// it stands for.
import { readFileSync } from 'node:fs';

const README = new URL('../../README.md', import.meta.url);

/** Every fenced block of a Markdown file: `{ lang, code, file, line }` (line: 1-based, of the opening fence). */
export function markdownBlocks(markdown) {
  const name = markdown === README ? 'README.md' : String(markdown);
  const lines = readFileSync(markdown, 'utf8').split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)\s*$/.exec(lines[i]);
    if (!fence) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${name}:${i + 1}: unclosed code block`);
    const label = /^<!-- file: (\S+) -->$/.exec(lines[i - 1] ?? '');
    blocks.push({ lang: fence[1], code: `${lines.slice(i + 1, end).join('\n')}\n`, file: label?.[1], line: i + 1 });
    i = end;
  }
  return blocks;
}

/** The README's blocks. */
export const readmeBlocks = () => markdownBlocks(README);

/** The block labelled `<!-- file: name -->` in `markdown`. */
export function markdownFile(name, markdown) {
  const found = markdownBlocks(markdown).filter((block) => block.file === name);
  if (found.length !== 1) throw new Error(`${markdown} has ${found.length} blocks labelled file: ${name}`);
  return found[0].code;
}

/** The README's block labelled `<!-- file: name -->`. */
export const readmeFile = (name) => markdownFile(name, README);
