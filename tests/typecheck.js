// Type-checks a TypeScript consumer of posenc's declarations, as a user's strict project would
// (Node ESM resolution, libraries' .d.ts checked too). Shared by the API tests, which import
// bindings/js by path, and the package test, which imports the installed tarball.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));

/**
 * Writes `source` as consumer.ts (or `file`: consumer.tsx for JSX) with a strict tsconfig into
 * `folder` and runs tsc; throws with its report. `overrides` replace compiler options (e.g.
 * `{ module: 'node16', noEmit: false }`).
 */
export function typecheck(folder, source, overrides = {}, file = 'consumer.ts') {
  writeFileSync(join(folder, file), source);
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    skipLibCheck: false,
    ...overrides,
  };
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: [file] }));
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: folder, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    throw new Error(`tsc found errors in the consumer:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}

/** `typecheck` in a scratch ES-module folder, removed afterwards (consumers that import by path). */
export function typecheckScratch(source, overrides = {}, file = 'consumer.ts') {
  const work = mkdtempSync(join(tmpdir(), 'posenc-types-'));
  try {
    writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module' }));
    typecheck(work, source, overrides, file);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
