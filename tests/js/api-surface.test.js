// One source for each fact of the API surface: the options each function reads (options.js)
// are the keys its TypeScript declaration accepts (index.d.ts) and the keys its README heading
// lists; the package's exports are the values index.d.ts declares, and its plain functions have
// README headings; every status code of the core has a wording (errors.js) and names a parameter.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import ts from 'typescript';

import * as api from '../../bindings/js/index.js';
import { WORDED_STATUSES } from '../../bindings/js/errors.js';
import { OPTIONS } from '../../bindings/js/options.js';
import { loadBothVariants, rawModule } from './support.js';

const root = new URL('../../', import.meta.url);
const DECLARATIONS = new URL('bindings/js/index.d.ts', root).pathname;

/** Option keys by function, from the options parameter of each method in index.d.ts. */
function declaredOptions() {
  const program = ts.createProgram([DECLARATIONS], { strict: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(DECLARATIONS);
  const keys = {};
  const methodsOf = (className, prefix) => {
    const node = source.statements.find((s) => ts.isClassDeclaration(s) && s.name?.text === className);
    for (const member of node.members) {
      if (!ts.isMethodDeclaration(member)) continue;
      const options = member.parameters.find((p) => p.name.getText(source) === 'options');
      if (!options) continue;
      const type = checker.getTypeAtLocation(options);
      const names = new Set(
        checker
          .getApparentType(type)
          .getProperties()
          .map((p) => p.getName()),
      );
      const fn = `${prefix}${member.name.getText(source)}`;
      keys[fn] = new Set([...(keys[fn] ?? []), ...names]); // overloads: the union of their keys
    }
  };
  methodsOf('Posenc', '');
  methodsOf('RopePlan', 'RopePlan.');
  return keys;
}

/**
 * Option keys by function, from the README's headings: `posenc.f(x, { a, b = 1, c?, ...g })`,
 * `plan.apply(x, { ... })`, `await loadPosenc({ ... })`; `...g` stands for all of g's keys.
 */
function documentedOptions() {
  const readme = readFileSync(new URL('README.md', root), 'utf8');
  const headings = readme
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .join('\n');
  const keys = {};
  for (const match of headings.matchAll(/`(?:await )?(?:(posenc|plan)\.)?(\w+)\(([^`]*?)\{([^`]*)\}\)`/g)) {
    const [, owner, method, , body] = match;
    const fn = owner === 'plan' ? `RopePlan.${method}` : method;
    const names = new Set();
    let depth = 0;
    let part = '';
    for (const char of `${body},`) {
      if (char === '{') depth++;
      if (char === '}') depth--;
      if (char !== ',' || depth > 0) {
        part += char;
        continue;
      }
      const spread = part.match(/^\s*\.\.\.(\w+)/);
      if (spread) for (const key of keys[spread[1]] ?? []) names.add(key);
      else for (const alternative of part.split('|')) names.add(alternative.trim().match(/^\w+/)?.[0]);
      part = '';
    }
    names.delete(undefined);
    keys[fn] = names;
  }
  return keys;
}

const sorted = (set) => [...set].sort();

/** The values (functions and classes) index.d.ts exports, by name. */
function declaredValues() {
  const source = ts.createProgram([DECLARATIONS], { noEmit: true }).getSourceFile(DECLARATIONS);
  const exported = (s) => s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  return new Set(
    source.statements
      .filter((s) => (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) && exported(s))
      .map((s) => s.name.text),
  );
}

describe('the API surface agrees with itself', () => {
  const declared = declaredOptions();
  const documented = documentedOptions();

  for (const [fn, schema] of Object.entries(OPTIONS)) {
    it(`${fn}: options.js, index.d.ts and the README list the same options`, () => {
      const read = new Set(Object.keys(schema));
      if (fn !== 'loadPosenc') {
        assert.ok(declared[fn], `index.d.ts declares ${fn} with an options parameter`);
        assert.deepEqual(sorted(declared[fn]), sorted(read), `${fn}: index.d.ts vs options.js`);
      }
      assert.ok(documented[fn], `the README has a heading for ${fn}`);
      assert.deepEqual(sorted(documented[fn]), sorted(read), `${fn}: README vs options.js`);
    });
  }

  it('the package exports exactly the functions and classes index.d.ts declares', () => {
    assert.deepEqual(sorted(Object.keys(api)), sorted(declaredValues()));
  });

  it('fromHfConfig, a plain function of the package, has its README heading', () => {
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    assert.ok(readme.split('\n').some((line) => line.startsWith('#') && line.includes('`fromHfConfig(config)`')));
    assert.equal(typeof api.fromHfConfig, 'function');
  });

  it('every function the declarations give options has a schema', () => {
    for (const fn of Object.keys(declared))
      assert.ok(OPTIONS[fn], `${fn} is declared but options.js does not read its options`);
  });
});

for (const posenc of await loadBothVariants()) {
  it(`every status code of the core is worded and names a parameter (${posenc.variant})`, async () => {
    const { description } = await rawModule(posenc.variant);
    for (const [code, status] of description.statuses.entries()) {
      if (code === 0) continue;
      assert.ok(WORDED_STATUSES.includes(status.name), `errors.js words ${status.name}`);
      assert.ok(status.parameter.length > 0, `${status.name} names a parameter`);
    }
    assert.deepEqual(
      sorted(new Set(WORDED_STATUSES)),
      sorted(new Set(description.statuses.slice(1).map((s) => s.name))),
      'errors.js words exactly the codes the core has',
    );
  });
}
