// Builds the page (scripts/build-web.sh) when web/site is missing or older than anything it is
// built from. A lock folder keeps test files running in parallel from building at once.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const WEB = path.join(ROOT, 'web');
export const SITE = path.join(WEB, 'site');
export const SINGLE_FILE = path.join(SITE, 'single', 'posenc-tutorial.html');
export const SINGLE_COMPANION = path.join(SITE, 'single', 'posenc-companion.html');

const SOURCES = [
  'web/index.html',
  'web/companion.html',
  'web/widgets.html',
  'web/parts',
  'web/styles.css',
  'web/vite.config.js',
  'web/src',
  'web/models',
  'widgets',
  'bindings/js',
  'dist',
  'scripts/build-web.sh',
  'package-lock.json',
];
const OUTPUTS = [path.join(SITE, 'index.html'), path.join(SITE, 'companion.html'), SINGLE_FILE, SINGLE_COMPANION];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(target).map((name) => newestMtime(path.join(target, name))));
}

function isStale() {
  const built = Math.min(...OUTPUTS.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  const sources = Math.max(...SOURCES.map((source) => newestMtime(path.join(ROOT, source))));
  return built === 0 || sources > built;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function ensureWebBuilt() {
  const lock = path.join(WEB, '.build-lock');
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (waited > 120_000) rmSync(lock, { recursive: true, force: true }); // stale lock
      await sleep(200);
    }
  }
  try {
    if (isStale())
      execFileSync('bash', [path.join(ROOT, 'scripts/build-web.sh')], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
