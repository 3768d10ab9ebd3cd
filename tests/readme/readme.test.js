// The documentation's code blocks are tests: README.md's and every docs/*.md page's, read by one
// reader (blocks.js). Every ```js block runs in Node as written (a block that does not import
// posenc gets `const posenc = await loadPosenc()` in front: the reference pages use an instance
// that way), with 'posenc' resolved through the package's own exports map, and type-checks as
// JavaScript (checkJs) under strict TypeScript with `bundler` and with `node16` resolution;
// ```ts blocks type-check the same way. Blocks labelled `<!-- file: name -->` are files of a
// browser example: they type-check here and run in Chromium (tests/web/worker.test.js). A
// ```sh block may hold only npm commands this package defines. Any other block needs
// `<!-- tested by: path -->` above it, and a page whose blocks another test runs declares
// `<!-- blocks tested by: path -->` before its first block; the named tests must exist. A block
// that none of these rules covers fails.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { docPages, pageBlocks, pageTests, ROOT } from './blocks.js';

// Inside the package folder, so that `import 'posenc'` is the package's self-reference.
const folder = join(ROOT, 'test-artifacts', 'readme');
const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
const PRELUDE = "import { loadPosenc } from 'posenc';\nconst posenc = await loadPosenc();\n";
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

const pages = docPages();
const testedElsewhere = new Map(pages.map((page) => [page, pageTests(page)]));
const blocks = pages.filter((page) => testedElsewhere.get(page).length === 0).flatMap(pageBlocks);
const js = blocks.filter((block) => block.lang === 'js');
const ts = blocks.filter((block) => block.lang === 'ts');
const importsPosenc = (code) => /from 'posenc(\/\w+)?'/.test(code);
const source = (block) => (block.file || importsPosenc(block.code) ? block.code : PRELUDE + block.code);
const where = (block) => `${block.page}:${block.line}`;
// File names carry the page and the line: docs/api.md:120 is docs-api-120.
const name = (block) => `${block.page.replace(/\.md$/, '').replaceAll('/', '-')}-${block.line}`;

/** Why an npm command line in a ```sh block is not one this package defines, or null when it is. */
function npmCommandProblem(line) {
  const words = line.trim().split(/\s+/);
  if (words[0] !== 'npm') return 'not an npm command';
  const [, command, argument] = words;
  if (command === 'install') return argument === manifest.name ? null : `installs ${argument}, not ${manifest.name}`;
  if (command === 'start' || command === 'test') return manifest.scripts[command] ? null : `no ${command} script`;
  if (command === 'run') return manifest.scripts[argument] ? null : `package.json has no script ${argument}`;
  return `npm ${command} is not a command of this package`;
}

rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
// Examples that locate the .wasm themselves find copies in ./wasm/, next to the module.
mkdirSync(join(folder, 'wasm'));
for (const file of ['posenc-simd.wasm', 'posenc-scalar.wasm'])
  copyFileSync(join(ROOT, 'dist', file), join(folder, 'wasm', file));

describe('every code block of the documentation is tested', () => {
  assert.ok(pages.includes('docs/api.md'), 'the reference is among the pages read');
  assert.ok(js.length >= 20, `the pages have their examples (${js.length} js blocks)`);

  for (const [page, tests] of testedElsewhere) {
    if (tests.length === 0) continue;
    it(`${page}: its blocks are tested by ${tests.join(', ')}`, () => {
      for (const test of tests) assert.ok(existsSync(join(ROOT, test)), `${page} names ${test}, which does not exist`);
    });
  }

  it('each block that is neither run nor type-checked here is covered by a rule', () => {
    const problems = [];
    for (const block of blocks) {
      if (block.lang === 'js' || block.lang === 'ts') continue;
      if (block.testedBy) {
        if (!existsSync(join(ROOT, block.testedBy))) problems.push(`${where(block)}: ${block.testedBy} does not exist`);
      } else if (block.lang === 'sh') {
        for (const line of block.code.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'))) {
          const problem = npmCommandProblem(line);
          if (problem) problems.push(`${where(block)}: \`${line.trim()}\`: ${problem}`);
        }
      } else {
        problems.push(`${where(block)}: a \`\`\`${block.lang || '(no language)'} block that no test checks`);
      }
    }
    assert.deepEqual(problems, []);
  });
});

describe('the js blocks run in Node', () => {
  for (const block of js.filter((b) => !b.file)) {
    it(where(block), () => {
      const file = join(folder, `${name(block)}.mjs`);
      writeFileSync(file, source(block));
      try {
        execFileSync(process.execPath, [file], { cwd: folder, encoding: 'utf8', stdio: 'pipe', timeout: 60_000 });
      } catch (error) {
        assert.fail(`${where(block)} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      }
    });
  }
});

describe('the js and ts blocks type-check (strict TypeScript, checkJs)', () => {
  const modes = {
    bundler: { module: 'esnext', moduleResolution: 'bundler' },
    node16: { module: 'node16', moduleResolution: 'node16' },
  };
  // A worker's global scope is not a window's: worker files get the webworker library.
  const typed = [...js, ...ts];
  const scopes = {
    page: { lib: ['es2022', 'dom'], blocks: typed.filter((b) => !b.file?.includes('worker')) },
    worker: { lib: ['es2022', 'webworker'], blocks: typed.filter((b) => b.file?.includes('worker')) },
  };
  for (const [mode, resolution] of Object.entries(modes)) {
    for (const [scope, { lib, blocks: scoped }] of Object.entries(scopes)) {
      it(`${scope} code with ${mode} resolution`, () => {
        const project = join(folder, `ts-${mode}-${scope}`);
        mkdirSync(project, { recursive: true });
        // Each block is its own module (`export {}` keeps top-level names apart).
        const files = scoped.map((block) => {
          const file = `${name(block)}${block.file ? `-${block.file.replace(/\.js$/, '')}` : ''}.${block.lang}`;
          writeFileSync(join(project, file), `${source(block)}\nexport {};\n`);
          return file;
        });
        const compilerOptions = {
          strict: true,
          noEmit: true,
          allowJs: true,
          checkJs: true,
          target: 'es2022',
          lib,
          types: [],
          skipLibCheck: false,
          ...resolution,
        };
        writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
        try {
          execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], {
            cwd: project,
            encoding: 'utf8',
            stdio: 'pipe',
          });
        } catch (error) {
          assert.fail(`tsc (${mode}) found errors in blocks (file names carry the page and line):\n${error.stdout}`);
        }
      });
    }
  }
});
