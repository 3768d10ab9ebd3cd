// The README's code blocks, for the tests that run them (tests/markdown-blocks.js reads them).
import { markdownBlocks, markdownFile } from '../markdown-blocks.js';

const README = new URL('../../README.md', import.meta.url);

/** Every fenced block: `{ lang, code, file, line }` (line: 1-based, of the opening fence). */
export const readmeBlocks = () => markdownBlocks(README);

/** The block labelled `<!-- file: name -->`. */
export const readmeFile = (name) => markdownFile(README, name);
