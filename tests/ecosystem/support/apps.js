// The consumer apps: a template from tests/ecosystem/apps/ copied into
// test-artifacts/ecosystem/<name>/, with posenc installed into its node_modules from the packed
// tarball, as `npm install posenc` would lay it out. The bundlers and frameworks themselves are
// not copied: they are the test suite's own pinned packages (tests/package.json, installed into
// tests/node_modules by scripts/setup.sh, not the root install), which module resolution finds
// from every app through test-artifacts/ecosystem/node_modules, a link to tests/node_modules.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { packTarball, ROOT, run } from '../../pack.js';

export const APPS = path.join(ROOT, 'tests', 'ecosystem', 'apps');
export const WORK = path.join(ROOT, 'test-artifacts', 'ecosystem');
const TEST_MODULES = path.join(ROOT, 'tests', 'node_modules');

/** A file of one of the test suite's packages (tests/node_modules/…). */
export const modules = (...parts) => path.join(TEST_MODULES, ...parts);

/** The version of the package installed in `folder`. */
export const versionOf = (folder) => JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')).version;

const readlinkSafe = (file) => {
  try {
    return readlinkSync(file);
  } catch {
    return null;
  }
};

/**
 * Packs the repository once and unpacks it into WORK/<name> (one per test file, so files run
 * in parallel never share one), and makes the test suite's packages resolvable from the apps;
 * returns the folder holding the package's files.
 */
export function unpackPosenc(name = '.tarball') {
  const staging = path.join(WORK, name);
  if (!existsSync(path.join(TEST_MODULES, '.package-lock.json'))) {
    throw new Error('tests/node_modules is missing: run scripts/setup.sh (npm ci --prefix tests)');
  }
  mkdirSync(WORK, { recursive: true });
  const link = path.join(WORK, 'node_modules');
  const target = path.relative(WORK, TEST_MODULES);
  // Left in place when right: another suite's apps may be building from it now.
  if (!existsSync(link) || readlinkSafe(link) !== target) {
    rmSync(link, { recursive: true, force: true });
    symlinkSync(target, link, 'dir');
  }
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const tarball = packTarball(staging);
  run('tar', ['-xzf', tarball, '-C', staging]);
  return path.join(staging, 'package');
}

/**
 * A fresh copy of the app template `template` at test-artifacts/ecosystem/<name>, with posenc
 * (the unpacked tarball at `packageDir`) in node_modules/posenc, the consumer `source` (a file of
 * tests/ecosystem/apps/) as its main.js and the shared page (apps/index.html, or the page
 * `page.from` names) where `page` says. Returns its folder.
 */
export function prepareApp(name, template, packageDir, { consumer, page, source = 'main.js' } = {}) {
  const app = path.join(WORK, name);
  rmSync(app, { recursive: true, force: true });
  cpSync(path.join(APPS, template), app, { recursive: true });
  // The consumer (apps/main.js, or apps/widgets.js for posenc/widgets) as the app's main.js,
  // importing posenc as `consumer` says: the package name for bundlers, a path for static folders.
  if (consumer !== undefined) {
    const main = readFileSync(path.join(APPS, source), 'utf8');
    writeFileSync(path.join(app, 'main.js'), main.replace(/from 'posenc(\/widgets)?';/, `from '${consumer}';`));
  }
  // The one page (apps/index.html), where the tool looks for it, loading the script where the
  // tool puts it (none where the tool adds the tag itself).
  if (page !== undefined) {
    const html = readFileSync(path.join(APPS, page.from ?? 'index.html'), 'utf8');
    const script = page.script ? `<script type="module" src="${page.script}"></script>` : '';
    mkdirSync(path.dirname(path.join(app, page.at)), { recursive: true });
    writeFileSync(path.join(app, page.at), html.replace('<!-- script -->', script));
  }
  cpSync(packageDir, path.join(app, 'node_modules', 'posenc'), { recursive: true });
  return app;
}

/** Every file under `folder`, as paths relative to it. */
export function filesUnder(folder) {
  return readdirSync(folder, { recursive: true }).filter((name) => statSync(path.join(folder, name)).isFile());
}
