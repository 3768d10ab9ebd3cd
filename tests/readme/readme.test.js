// The README's code blocks are tests. Every ```js block runs in Node as written (a block that
// does not import posenc gets `const posenc = await loadPosenc()` in front: the README's
// reference entries use an instance that way), with 'posenc' resolved through the package's own
// exports map, and type-checks as JavaScript (checkJs) under strict TypeScript with `bundler`
// and with `node16` resolution. Blocks labelled `<!-- file: name -->` are files of a browser example: they
// type-check here and run in Chromium (tests/web/worker.test.js).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readmeBlocks } from './blocks.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Inside the package folder, so that `import 'posenc'` is the package's self-reference.
const folder = join(root, 'test-artifacts', 'readme');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const PRELUDE = "import { loadPosenc } from 'posenc';\nconst posenc = await loadPosenc();\n";

const blocks = readmeBlocks().filter((block) => block.lang === 'js');
const importsPosenc = (code) => /from 'posenc(\/\w+)?'/.test(code);
const source = (block) => (block.file || importsPosenc(block.code) ? block.code : PRELUDE + block.code);
const name = (block) => `readme-${block.line}`;

rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
// Examples that locate the .wasm themselves find copies in ./wasm/, next to the module.
mkdirSync(join(folder, 'wasm'));
for (const file of ['posenc-simd.wasm', 'posenc-scalar.wasm'])
  copyFileSync(join(root, 'dist', file), join(folder, 'wasm', file));

describe('README code blocks run in Node', () => {
  assert.ok(blocks.length >= 10, 'the README has its examples');
  for (const block of blocks.filter((b) => !b.file)) {
    it(`README.md:${block.line}`, () => {
      const file = join(folder, `${name(block)}.mjs`);
      writeFileSync(file, source(block));
      try {
        execFileSync(process.execPath, [file], { cwd: folder, encoding: 'utf8', stdio: 'pipe', timeout: 60_000 });
      } catch (error) {
        assert.fail(`README.md:${block.line} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      }
    });
  }
});

describe('README code blocks type-check (strict TypeScript, checkJs)', () => {
  const modes = {
    bundler: { module: 'esnext', moduleResolution: 'bundler' },
    node16: { module: 'node16', moduleResolution: 'node16' },
  };
  // A worker's global scope is not a window's: worker files get the webworker library.
  const scopes = {
    page: { lib: ['es2022', 'dom'], blocks: blocks.filter((b) => !b.file?.includes('worker')) },
    worker: { lib: ['es2022', 'webworker'], blocks: blocks.filter((b) => b.file?.includes('worker')) },
  };
  for (const [mode, resolution] of Object.entries(modes)) {
    for (const [scope, { lib, blocks: scoped }] of Object.entries(scopes)) {
      it(`${scope} code with ${mode} resolution`, () => {
        const project = join(folder, `ts-${mode}-${scope}`);
        mkdirSync(project, { recursive: true });
        // Each block is its own module (`export {}` keeps top-level names apart).
        const files = scoped.map((block) => {
          const file = `${name(block)}${block.file ? `-${block.file.replace(/\.js$/, '')}` : ''}.js`;
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
          assert.fail(
            `tsc (${mode}) found errors in README blocks (file names carry the README line):\n${error.stdout}`,
          );
        }
      });
    }
  }
});
