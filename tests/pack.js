// The npm tarball as users get it: `npm pack` of the repository (without the prepack build, so
// the tests use the dist/ already built). Shared by the package smoke test and the ecosystem
// suite, with the command runner both use.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Runs a command and returns what it printed; on failure the error carries its output. */
export function run(command, args, cwd, options = {}) {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe', ...options });
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}

/** Packs the repository into `destination` (an empty folder) and returns the tarball's path. */
export function packTarball(destination) {
  run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', destination], ROOT);
  const tarball = readdirSync(destination).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${destination}`);
  return join(destination, tarball);
}
