// One source for each fact of the API surface: the options each function reads (options.js)
// are the keys its TypeScript declaration accepts (index.d.ts) and the keys its heading in the
// API reference (docs/api.md) lists; the package's exports are the values index.d.ts declares;
// every function and method index.d.ts declares has its section in docs/api.md, and no section
// there names one that does not exist; every status code of the core has a wording (errors.js)
// and names a parameter.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import ts from 'typescript';

import * as api from '../../bindings/js/index.js';
import { WORDED_STATUSES } from '../../bindings/js/errors.js';
import { OPTIONS } from '../../bindings/js/options.js';
import { loadBothVariants } from './support.js';

const root = new URL('../../', import.meta.url);
const DECLARATIONS = new URL('bindings/js/index.d.ts', root).pathname;
const REFERENCE = new URL('docs/api.md', root);

/** The headings of the API reference, one string. */
const referenceHeadings = () =>
  readFileSync(REFERENCE, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .join('\n');

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
 * Option keys by function, from the reference's headings: `posenc.f(x, { a, b = 1, c?, ...g })`,
 * `plan.apply(x, { ... })`, `await loadPosenc({ ... })`; `...g` stands for all of g's keys.
 */
function documentedOptions() {
  const keys = {};
  for (const match of referenceHeadings().matchAll(/`(?:await )?(?:(posenc|plan)\.)?(\w+)\(([^`]*?)\{([^`]*)\}\)`/g)) {
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

// How the reference's headings name each owner of methods: `posenc.rope(`, `plan.apply(`,
// `array.subarray(`; a plain function of the package has no owner (`fromHfConfig(`).
const OWNERS = { posenc: 'Posenc', plan: 'RopePlan', array: 'WasmArray' };

/**
 * Every function and method the reference's headings document, as `Class.method` or `function`
 * (what a heading shows after → is what the call returns, not a name it documents).
 */
function documentedNames() {
  const names = new Set();
  const called = referenceHeadings()
    .split('\n')
    .map((heading) => heading.split('→')[0])
    .join('\n');
  for (const [, owner, name] of called.matchAll(/`(?:await )?(?:(\w+)\.)?(\w+)\(/g))
    names.add(owner ? `${OWNERS[owner] ?? owner}.${name}` : name);
  return names;
}

/** Every function index.d.ts exports and every method of its exported classes (named by an identifier). */
function declaredNames() {
  const source = ts.createProgram([DECLARATIONS], { noEmit: true }).getSourceFile(DECLARATIONS);
  const names = new Set();
  for (const statement of source.statements) {
    if (!statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isFunctionDeclaration(statement)) names.add(statement.name.text);
    if (!ts.isClassDeclaration(statement)) continue;
    for (const member of statement.members)
      if (ts.isMethodDeclaration(member) && ts.isIdentifier(member.name))
        names.add(`${statement.name.text}.${member.name.text}`);
  }
  return names;
}

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
    it(`${fn}: options.js, index.d.ts and docs/api.md list the same options`, () => {
      const read = new Set(Object.keys(schema));
      if (fn !== 'loadPosenc') {
        assert.ok(declared[fn], `index.d.ts declares ${fn} with an options parameter`);
        assert.deepEqual(sorted(declared[fn]), sorted(read), `${fn}: index.d.ts vs options.js`);
      }
      assert.ok(documented[fn], `docs/api.md has a heading for ${fn}`);
      assert.deepEqual(sorted(documented[fn]), sorted(read), `${fn}: docs/api.md vs options.js`);
    });
  }

  it('the package exports exactly the functions and classes index.d.ts declares', () => {
    assert.deepEqual(sorted(Object.keys(api)), sorted(declaredValues()));
  });

  it('docs/api.md has a section for every function and method index.d.ts declares, and for no other', () => {
    const declaredHere = declaredNames();
    const documentedHere = documentedNames();
    assert.deepEqual(
      sorted(declaredHere).filter((name) => !documentedHere.has(name)),
      [],
      'declared without a section in docs/api.md',
    );
    assert.deepEqual(
      sorted(documentedHere).filter((name) => !declaredHere.has(name)),
      [],
      'documented in docs/api.md but not declared',
    );
    assert.ok(declaredHere.has('fromHfConfig') && declaredHere.has('WasmArray.subarray'), 'functions and methods read');
  });

  it('every function the declarations give options has a schema', () => {
    for (const fn of Object.keys(declared))
      assert.ok(OPTIONS[fn], `${fn} is declared but options.js does not read its options`);
  });
});

for (const posenc of await loadBothVariants()) {
  it(`every status code of the core is worded and names a parameter (${posenc.variant})`, async () => {
    const { readDescription } = await import('../../bindings/js/seam.js');
    const module = await import('../../dist/posenc.mjs');
    const bytes = readFileSync(new URL(`dist/posenc-${posenc.variant}.wasm`, root));
    const description = readDescription(await module.default({ wasmBinary: bytes }));
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
