// The README's code blocks, for the tests that run them: each with its language, its text and,
// where an HTML comment `<!-- file: name -->` precedes it, the file it stands for.
import { readFileSync } from 'node:fs';

const README = new URL('../../README.md', import.meta.url);

/** Every fenced block: `{ lang, code, file, line }` (line: 1-based, of the opening fence). */
export function readmeBlocks() {
  const lines = readFileSync(README, 'utf8').split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)\s*$/.exec(lines[i]);
    if (!fence) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`README.md:${i + 1}: unclosed code block`);
    const label = /^<!-- file: (\S+) -->$/.exec(lines[i - 1] ?? '');
    blocks.push({ lang: fence[1], code: `${lines.slice(i + 1, end).join('\n')}\n`, file: label?.[1], line: i + 1 });
    i = end;
  }
  return blocks;
}

/** The block labelled `<!-- file: name -->`. */
export function readmeFile(name) {
  const found = readmeBlocks().filter((block) => block.file === name);
  if (found.length !== 1) throw new Error(`README.md has ${found.length} blocks labelled file: ${name}`);
  return found[0].code;
}
