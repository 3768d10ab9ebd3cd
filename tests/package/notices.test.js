// Licenses: posenc's own (LICENSE, MIT as package.json declares) and the notices of the
// third-party code its bundles embed, kept whole in those bundles and listed in
// THIRD_PARTY_NOTICES.md, all read against what node_modules ships.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { BUNDLED, noticesFile, packageNotice } from '../../scripts/third-party-notices.js';
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
});
