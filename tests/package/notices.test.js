// Licenses: posenc's own (LICENSE, MIT as package.json declares) and the notices of the
// third-party code its bundles embed, kept whole in those bundles and listed in
// THIRD_PARTY_NOTICES.md, all read against what node_modules ships; and xsimd's, whose templates
// the SIMD WebAssembly build holds, read against the copyright file in .deps.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { BUNDLED, COMPILED, noticesFile, packageNotice } from '../../scripts/third-party-notices.js';
import { ensureWebBuilt } from '../web/support/build.js';

const root = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');

test('THIRD_PARTY_NOTICES.md is what scripts/third-party-notices.js writes from node_modules', () => {
  assert.equal(read('THIRD_PARTY_NOTICES.md'), noticesFile(), 'run node scripts/third-party-notices.js');
  assert.ok(JSON.parse(read('package.json')).files.includes('THIRD_PARTY_NOTICES.md'), 'shipped in the tarball');
});

test('dist/widgets.js carries the whole notice of every package it embeds', () => {
  const bundle = read('dist/widgets.js');
  for (const name of BUNDLED['dist/widgets.js (posenc/widgets)']) {
    const text = packageNotice(name).text.replaceAll('*/', '* /');
    assert.ok(bundle.includes(text), `${name}'s notice`);
  }
  assert.match(bundle, /ColorBrewer/, "d3-scale-chromatic's schemes' own license (Apache-2.0)");
});

test("the tutorial page's scripts carry the notices of the packages they embed", async () => {
  await ensureWebBuilt();
  const assets = new URL('web/site/assets/', root);
  const scripts = readdirSync(assets)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(new URL(file, assets), 'utf8'))
    .join('\n');
  const single = read('web/site/single/posenc-tutorial.html');
  for (const name of BUNDLED['the tutorial page (web/site, and its single-file build)']) {
    const text = packageNotice(name).text.replaceAll('*/', '* /');
    assert.ok(scripts.includes(text), `${name}'s notice in web/site`);
    assert.ok(single.includes(text), `${name}'s notice in the single file`);
  }
  // The page holds the SIMD build too, so xsimd's notice names it.
  const simd = readFileSync(new URL('dist/posenc-simd.wasm', root));
  const page = 'the tutorial page (web/site, and its single-file build)';
  const held = readdirSync(assets).some((file) => holdsSimdBuild(readFileSync(new URL(file, assets)), simd));
  assert.ok(held && holdsSimdBuild(Buffer.from(single, 'latin1'), simd), 'the page holds the SIMD build');
  assert.ok(COMPILED.xsimd.embeddedIn.includes(page), "xsimd's notice names the page");
});

// Whether `file`'s bytes hold the SIMD WebAssembly build, as bytes or as base64.
function holdsSimdBuild(bytes, simd) {
  return bytes.equals(simd) || bytes.toString('latin1').includes(simd.toString('base64'));
}

test("xsimd's whole notice is listed with every shipped file that holds the SIMD build", () => {
  const notices = read('THIRD_PARTY_NOTICES.md');
  const copyright = read('.deps/root/usr/share/doc/libxsimd-dev/copyright').trim();
  assert.ok(notices.includes(`\n${copyright}\n`), "xsimd's copyright file, whole");
  assert.match(copyright, /License: BSD-3-clause\n Redistribution and use in source and binary forms/);
  const row = notices.split('\n').find((line) => line.startsWith('| xsimd |'));
  assert.ok(row, 'xsimd has a row in the table');
  const simd = readFileSync(new URL('dist/posenc-simd.wasm', root));
  const shipped = JSON.parse(read('package.json')).files.filter((path) => path.startsWith('dist/'));
  const holding = shipped.filter((path) => holdsSimdBuild(readFileSync(new URL(path, root)), simd));
  assert.ok(holding.includes('dist/posenc-simd.wasm') && holding.length > 1, holding.join(', '));
  const listed = COMPILED.xsimd.embeddedIn.filter((where) => where.startsWith('dist/'));
  assert.deepEqual(listed.sort(), holding.sort(), 'the dist files listed are those that hold the SIMD build');
  for (const path of holding) assert.ok(row.includes(path), `the table names ${path}`);
});
