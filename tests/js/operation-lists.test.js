// The lists an operation is written into, checked against their source of truth, so that a new
// operation (or a new enum value, default or source file) cannot be left out of one of them:
// the core's sources in CMakeLists.txt, the public headers in the umbrella posenc.h, the
// module's operations in posenc-module.d.ts, each array argument's shape in shapes.js, the JS
// tables keyed by an enum's names, each public method's test file, and the defaults and
// length-dependent scaling types the JS layer takes from the module's describe()
// (bindings/wasm/describe.cpp) instead of restating them.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import ts from 'typescript';

import { LENGTH_SCHEDULES } from '../../bindings/webgpu/encoder.js';
import { OPTIONS, SCALING_KEYS } from '../../bindings/js/options.js';
import { SHAPES } from '../../bindings/js/shapes.js';
import { ATTENTION_ENCODING_OPTIONS, GRID_LAYOUTS, LAYOUT_ENUMS } from '../../bindings/js/specs.js';
import { loadBothVariants, rawModule } from './support.js';

const root = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const filesIn = (dir, ending) =>
  readdirSync(new URL(dir, root))
    .filter((name) => name.endsWith(ending))
    .sort();
const sorted = (list) => [...list].sort();

describe('the build and the umbrella header list every file', () => {
  it("CMakeLists.txt's POSENC_CORE_SOURCES is every src/*.cpp", () => {
    const block = read('CMakeLists.txt').match(/set\(POSENC_CORE_SOURCES([^)]*)\)/);
    assert.ok(block, 'CMakeLists.txt sets POSENC_CORE_SOURCES');
    const listed = block[1].trim().split(/\s+/);
    assert.deepEqual(
      sorted(listed),
      filesIn('src/', '.cpp').map((name) => `src/${name}`),
    );
  });

  it('the WebAssembly modules link every bindings/wasm/*.cpp', () => {
    const link = read('CMakeLists.txt').match(/add_executable\(posenc-\$\{variant\}([^)]*)\)/);
    assert.ok(link, 'CMakeLists.txt links the posenc-<variant> modules');
    assert.deepEqual(
      sorted(link[1].trim().split(/\s+/)),
      filesIn('bindings/wasm/', '.cpp').map((name) => `bindings/wasm/${name}`),
    );
  });

  it('include/posenc/posenc.h includes every public header', () => {
    const included = [...read('include/posenc/posenc.h').matchAll(/^#include "([^"]+)"$/gm)].map((m) => m[1]);
    assert.deepEqual(
      sorted(included),
      filesIn('include/posenc/', '.h').filter((name) => name !== 'posenc.h'),
    );
  });
});

describe('every public method has its tests', () => {
  it("each Posenc method of index.d.ts has tests/js/<its name in kebab case>.test.js (ropeQK's is rope-qk)", () => {
    const path = 'bindings/js/index.d.ts';
    const source = ts.createSourceFile(path, read(path), ts.ScriptTarget.Latest);
    const posenc = source.statements.find((s) => ts.isClassDeclaration(s) && s.name?.text === 'Posenc');
    const methods = new Set(posenc.members.filter(ts.isMethodDeclaration).map((m) => m.name.getText(source)));
    assert.ok(methods.size > 0);
    for (const method of methods) {
      const file = `tests/js/${method.replace(/[A-Z]+/g, (c) => `-${c.toLowerCase()}`)}.test.js`;
      assert.ok(existsSync(new URL(file, root)), `${method}: ${file}`);
    }
  });
});

// Array slots that are lists or tables of the call's own, not tensors whose length is a product
// of options: a length error on them has no shape to print.
const NOT_TENSORS = ['positions', 'offsets', 'carry', 'shortFactor', 'longFactor', 'segments'];
// Tensors whose length no option gives: outputs the call allocates (its length its own result).
const UNSHAPED = {
  ropeSchedule: ['invFreq'],
  alibiSlopes: ['slopes'],
  mropePositions: ['out'],
};
// The shapes table is keyed by the JS functions; these run an operation of another name.
const OPERATION_OF = {
  'RopePlan.apply': 'ropePlanApply',
  'RopePlan.applyQK': 'ropePlanApplyQK',
  convertLayoutWeights: 'convertLayout',
};
const operationOf = (fn) => OPERATION_OF[fn] ?? fn;
// An operand array slot as the caller names it (outQ is out.q; convertLayoutWeights' x is w).
const parameterOf = (slot) => slot.replace(/^out([A-Z])/, (_, c) => `out.${c.toLowerCase()}`);
const WEIGHTS = { __proto__: null, w: 'x' };
const slotOf = (fn, parameter) => (fn === 'convertLayoutWeights' && WEIGHTS[parameter]) || parameter;

for (const posenc of await loadBothVariants()) {
  const { mod, description } = await rawModule(posenc.variant);
  const operations = Object.keys(description.operands);
  const arraySlots = (operation) => {
    const slots = description.operands[operation];
    return slots.filter((s) => slots.includes(`${s}Length`) && !NOT_TENSORS.includes(s));
  };

  describe(`the module's operations (${posenc.variant})`, () => {
    it('posenc-module.d.ts types exactly the operations the module describes', () => {
      const union = read('bindings/wasm/posenc-module.d.ts').match(/export type Operation =([^;]*);/);
      assert.ok(union, 'posenc-module.d.ts declares Operation');
      const typed = [...union[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
      assert.deepEqual(sorted(typed), sorted(operations));
    });

    it('every described operation is a function the module exports', () => {
      for (const operation of operations)
        assert.equal(typeof mod[`_posenc_${operation}`], 'function', `_posenc_${operation}`);
    });

    it('every tensor argument of every operation has its shape in shapes.js', () => {
      for (const operation of operations) {
        for (const slot of arraySlots(operation)) {
          if (UNSHAPED[operation]?.includes(slot)) continue;
          const shaped = Object.entries(SHAPES).filter(([parameter, byFunction]) =>
            Object.keys(byFunction).some(
              (fn) => operationOf(fn) === operation && slotOf(fn, parameter) === parameterOf(slot),
            ),
          );
          assert.ok(shaped.length > 0, `shapes.js has ${parameterOf(slot)} of ${operation}`);
        }
      }
    });

    it('every shapes.js entry is an array argument of its operation', () => {
      for (const [parameter, byFunction] of Object.entries(SHAPES)) {
        for (const fn of Object.keys(byFunction)) {
          const operation = operationOf(fn);
          assert.ok(
            arraySlots(operation)?.map(parameterOf).includes(slotOf(fn, parameter)),
            `${operation} has an array ${slotOf(fn, parameter)} (${fn}'s ${parameter})`,
          );
        }
      }
    });
  });

  describe(`JS tables keyed by an enum's names (${posenc.variant})`, () => {
    const { enums } = description;
    it("attentionScores' options by encoding name every attentionEncoding", () => {
      assert.deepEqual(Object.keys(ATTENTION_ENCODING_OPTIONS), [...enums.attentionEncoding]);
      for (const [encoding, names] of Object.entries(LAYOUT_ENUMS)) {
        assert.ok(enums.attentionEncoding.includes(encoding), encoding);
        assert.ok(enums[names], `${encoding}'s layouts are the enum ${names}`);
      }
    });

    it('the scaling keys name every scalingType', () => {
      assert.deepEqual(Object.keys(SCALING_KEYS), [...enums.scalingType]);
    });

    it("ropeGrid's layouts name every gridVariant, each a ropeLayout", () => {
      assert.deepEqual(Object.keys(GRID_LAYOUTS), [...enums.gridVariant]);
      for (const layout of Object.values(GRID_LAYOUTS)) assert.ok(enums.ropeLayout.includes(layout), layout);
    });

    it('the length-dependent scaling types are scaling types, and the GPU encoder names the same', () => {
      assert.ok(description.lengthDependent.length > 0);
      for (const type of description.lengthDependent) assert.ok(enums.scalingType.includes(type), type);
      assert.deepEqual(sorted(LENGTH_SCHEDULES), sorted(description.lengthDependent));
    });
  });

  describe(`defaults come from the core (${posenc.variant})`, () => {
    const { defaults } = description;
    const twice = (slot) => ({ [slot]: 2 * defaults[slot] });
    const unit = Float32Array.from({ length: 4 * 8 }, (_, i) => (i % 2 === 0 ? 1 : 0.5));
    const q = Float32Array.from({ length: 4 * 8 }, (_, i) => Math.sin(i));
    const scores = { queryLen: 4, keyLen: 4, headDim: 8, numHeads: 1, q, k: q };
    const far = new Float32Array(300 * 8); // keys at distances past T5's maxDistance
    const attention = ({ q: queries, k: keys, ...options }) => posenc.attentionScores(queries, keys, options);
    // T5's table, [numBuckets, numHeads = 1], one distinct bias per bucket.
    const t5 = (given) => ({
      ...scores,
      encoding: 't5',
      bias: Float32Array.from({ length: given.numBuckets ?? defaults.numBuckets }, (_, i) => i / 8),
      ...given,
    });
    // Each default the core describes: calls that leave its option out, given what they take.
    const CALLS = {
      base: [
        (given) => posenc.sinusoidal({ seqLen: 4, dModel: 8, ...given }),
        (given) => posenc.rope(unit.slice(), { seqLen: 4, headDim: 8, ...given }),
        (given) => posenc.ropeGrid(unit.slice(), { rows: 2, cols: 2, headDim: 8, variant: 'axial', ...given }),
        (given) => attention({ ...scores, encoding: 'rope', ...given }),
      ],
      maxBias: [
        (given) => posenc.alibiSlopes({ numHeads: 4, ...given }),
        (given) => posenc.alibiBias({ numHeads: 2, queryLen: 3, keyLen: 3, ...given }),
        (given) => attention({ ...scores, encoding: 'alibi', ...given }),
      ],
      numBuckets: [
        (given) => posenc.relativePositionBuckets({ queryLen: 1, keyLen: 300, ...given }),
        (given) => attention({ ...t5(given), queryLen: 1, keyLen: 300, q: q.subarray(0, 8), k: far }),
      ],
      maxDistance: [
        (given) => posenc.relativePositionBuckets({ queryLen: 1, keyLen: 300, ...given }),
        (given) => attention({ ...t5(given), queryLen: 1, keyLen: 300, q: q.subarray(0, 8), k: far }),
      ],
      xposScaleBase: [
        (given) => posenc.rope(unit.slice(), { seqLen: 4, headDim: 8, xpos: { role: 'query', ...rename(given) } }),
        (given) => attention({ ...scores, encoding: 'xpos', xpos: rename(given) }),
      ],
      xposGamma: [
        (given) => posenc.rope(unit.slice(), { seqLen: 4, headDim: 8, xpos: { role: 'query', ...rename(given) } }),
        (given) => attention({ ...scores, encoding: 'xpos', xpos: rename(given) }),
      ],
    };
    /** xpos.scaleBase and xpos.gamma are the slots xposScaleBase and xposGamma. */
    function rename(given) {
      return Object.fromEntries(
        Object.entries(given).map(([slot, value]) => [slot.replace(/^xpos(.)/, (_, c) => c.toLowerCase()), value]),
      );
    }

    it('the module describes the defaults this test calls with', () => {
      assert.deepEqual(sorted(Object.keys(defaults)), sorted(Object.keys(CALLS)));
      for (const value of Object.values(defaults)) assert.ok(Number.isFinite(value));
    });

    for (const [slot, calls] of Object.entries(CALLS)) {
      it(`an option left out takes the core's ${slot}`, () => {
        for (const [i, call] of calls.entries()) {
          const left = call({});
          assert.deepEqual(left, call({ [slot]: defaults[slot] }), `call ${i} with ${slot} ${defaults[slot]}`);
          assert.notDeepEqual(left, call(twice(slot)), `call ${i} reads ${slot}`);
        }
      });
    }

    it("index.d.ts documents each of these options' default as the core's value", () => {
      const path = 'bindings/js/index.d.ts';
      const source = ts.createSourceFile(path, read(path), ts.ScriptTarget.Latest, true);
      // The declared option that each described default fills (xpos.scaleBase is xposScaleBase).
      const slotOf = (name) =>
        ['scaleBase', 'gamma'].includes(name) ? `xpos${name[0].toUpperCase()}${name.slice(1)}` : name;
      let documented = 0;
      const visit = (node) => {
        if (ts.isPropertySignature(node)) {
          const slot = slotOf(node.name.getText(source));
          const doc = ts
            .getJSDocCommentsAndTags(node)
            .map((d) => d.getText(source))
            .join(' ');
          const stated = doc.match(/[Dd]efault:? (-?\d+(?:\.\d+)?)/);
          if (Object.hasOwn(defaults, slot) && stated) {
            documented++;
            assert.equal(Number(stated[1]), defaults[slot], `${node.name.getText(source)}: ${doc}`);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
      assert.ok(documented >= Object.keys(defaults).length, `${documented} documented defaults`);
    });

    it('no option schema writes a default of its own for a default the core has', () => {
      for (const [fn, schema] of Object.entries(OPTIONS)) {
        for (const [key, kind] of Object.entries(schema)) {
          if (!Object.hasOwn(defaults, key)) continue;
          assert.equal(kind.fallback, undefined, `${fn}'s ${key} restates the core's default`);
        }
      }
    });
  });
}
