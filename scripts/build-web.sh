#!/usr/bin/env bash
# Builds the tutorial's two pages, the lesson and the advanced companion, with Vite
# (web/vite.config.js):
#   web/site/                             static folder (index.html, companion.html, widgets.html;
#                                         relative URLs: works under any sub-path)
#   web/site/single/posenc-tutorial.html  the lesson as one self-contained file (JS, CSS, fonts,
#   web/site/single/posenc-companion.html WASM inlined), and the companion; they link to each other
# and prints the built sizes. Needs dist/ (the glue, the .wasm files and their inline chunks):
# `bash scripts/build.sh wasm`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

for file in dist/posenc.mjs dist/posenc-simd.wasm dist/posenc-scalar.wasm dist/posenc-simd.inline.js dist/posenc-scalar.inline.js; do
  if [ ! -f "$file" ]; then
    echo "build-web.sh: $file is missing; run 'bash scripts/build.sh wasm' first" >&2
    exit 1
  fi
done

# Build into a scratch folder, then swap it in: a server (or test) using web/site never sees a
# half-written build.
vite="$root/node_modules/.bin/vite"
scratch="$root/node_modules/.cache/posenc-web-build"
rm -rf "$scratch"
"$vite" build --config web/vite.config.js --outDir "$scratch"
"$vite" build --config web/vite.config.js --mode single --outDir "$scratch/single"
"$vite" build --config web/vite.config.js --mode single-companion --outDir "$scratch/single"
rm -rf "$root/web/site.previous"
if [ -d "$root/web/site" ]; then mv "$root/web/site" "$root/web/site.previous"; fi
mv "$scratch" "$root/web/site"
rm -rf "$root/web/site.previous"

# Sizes by kind, raw and gzipped (what a server with compression sends).
node --input-type=module - "$root/web/site" <<'JS'
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
const site = process.argv[2];
const kinds = { '.js': 'JS', '.css': 'CSS', '.wasm': 'WASM', '.woff2': 'fonts', '.html': 'HTML' };
const totals = {};
const walk = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? walk(path) : [path];
});
for (const path of walk(site)) {
  const rel = relative(site, path);
  const kind = rel.startsWith('single') ? 'single file' : (kinds[path.slice(path.lastIndexOf('.'))] ?? 'other');
  const bytes = readFileSync(path);
  const entry = (totals[kind] ??= { files: 0, raw: 0, gzip: 0 });
  entry.files += 1;
  entry.raw += bytes.length;
  entry.gzip += gzipSync(bytes, { level: 9 }).length;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`.padStart(11);
console.log('web build sizes (raw, gzip -9):');
for (const [kind, { files, raw, gzip }] of Object.entries(totals)) {
  console.log(`  ${kind.padEnd(12)} ${String(files).padStart(3)} file(s) ${kb(raw)} ${kb(gzip)}`);
}
JS
