// The fenced code blocks of a Markdown file, for the tests that run a document's code as written:
// each with its language, its text and, where an HTML comment `<!-- file: name -->` precedes it,
// the file it stands for.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every fenced block of the file at `url`: `{ lang, code, file, line }` (line: 1-based, of the opening fence). */
export function markdownBlocks(url) {
  const name = basename(fileURLToPath(url));
  const lines = readFileSync(url, 'utf8').split('\n');
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

/** The one block of the file at `url` labelled `<!-- file: name -->`. */
export function markdownFile(url, name) {
  const found = markdownBlocks(url).filter((block) => block.file === name);
  if (found.length !== 1)
    throw new Error(`${basename(fileURLToPath(url))} has ${found.length} blocks labelled file: ${name}`);
  return found[0].code;
}
