// Every posenc element's properties take what frameworks pass: React 19 and Svelte 5 set a
// custom element's properties from JSX and template attributes as strings (base="100"), Vue
// passes '' for a bare attribute, and scripts pass numbers, arrays and booleans. For every
// setting of every element on the widgets gallery, each of these draws what the attribute
// draws; what cannot be used is named with its value and its type.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { useGallerySession } from './support/session.js';

const session = useGallerySession();
let page;
let log;
before(async () => ({ page, log } = await session));

/**
 * In the page: for each element type of the gallery, a value other than the default for each of
 * its settings (small sizes: quick to draw), set on fresh elements as attributes (their text), as
 * the strings a framework passes and as plain values (numbers, arrays, booleans); returns what
 * each drew.
 */
function drawEveryWay() {
  return page.evaluate(async () => {
    const tags = [...new Set([...document.querySelectorAll('main [id^="gallery-"]')].map((node) => node.localName))]
      .filter((tag) => tag.startsWith('posenc-'))
      .sort();
    /** A usable value other than the default: [plain value, its attribute text]. */
    const otherValue = (spec) => {
      switch (spec.type) {
        case 'int': {
          const step = spec.even ? 2 : 1;
          const low = spec.min + (spec.even && spec.min % 2 ? 1 : step);
          const value = low === spec.default ? low + step : low;
          return [value, String(value)];
        }
        case 'number':
          return [spec.default / 2 + 0.5, String(spec.default / 2 + 0.5)];
        case 'enum': {
          const value = spec.values.find((v) => v !== spec.default);
          return [value, value];
        }
        case 'boolean':
          return [true, ''];
        case 'numbers': {
          const value = spec.default.length ? spec.default.map((v, i) => (i === 0 ? v + 1 : v)) : [-2, 2];
          return [value, value.join(',')];
        }
        default:
          throw new Error(`no test value for a ${spec.type} setting`);
      }
    };
    /** How a framework's template passes the value: numbers as strings, a list as its text, a boolean as ''. */
    const asFrameworkString = (spec, text) => (spec.type === 'boolean' ? '' : text);
    const results = {};
    for (const tag of tags) {
      const ElementClass = customElements.get(tag);
      const specs = Object.fromEntries(
        ['theme', 'controls', ...Object.keys(ElementClass.settings)].map((name) => [
          name,
          name === 'theme'
            ? { type: 'enum', default: 'system', values: ['system', 'light', 'dark'] }
            : name === 'controls'
              ? { type: 'boolean', default: false }
              : ElementClass.settings[name].spec,
        ]),
      );
      const chosen = Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, otherValue(spec)]));
      const camel = (name) => name.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
      const ways = {
        attributes: (node) => {
          for (const [name, [, text]] of Object.entries(chosen)) node.setAttribute(name, text);
        },
        strings: (node) => {
          for (const [name, [, text]] of Object.entries(chosen))
            node[camel(name)] = asFrameworkString(specs[name], text);
        },
        values: (node) => {
          for (const [name, [value]] of Object.entries(chosen)) node[camel(name)] = value;
        },
      };
      results[tag] = {};
      for (const [way, apply] of Object.entries(ways)) {
        const node = document.createElement(tag);
        const invalid = [];
        node.addEventListener('posenc-invalid', (event) => invalid.push(event.detail.message));
        apply(node);
        const drawn = new Promise((resolve) => node.addEventListener('posenc-change', resolve, { once: true }));
        document.querySelector('main').append(node);
        await drawn;
        results[tag][way] = {
          settings: node.settings,
          theme: node.theme,
          controls: node.controls,
          controlsShown: !node.shadowRoot.querySelector('[part~="controls"]').hidden,
          attributes: Object.fromEntries(Object.keys(specs).map((name) => [name, node.getAttribute(name)])),
          csv: node.toCSV(),
          invalid,
        };
        node.remove();
      }
    }
    return results;
  });
}

test('for every setting of every element, numbers, numeric strings, lists, booleans and attributes draw the same', async () => {
  const results = await drawEveryWay();
  assert.equal(Object.keys(results).length, 8, Object.keys(results).join(' '));
  for (const [tag, { attributes, strings, values }] of Object.entries(results)) {
    assert.deepEqual(attributes.invalid, [], `${tag}: the attributes`);
    assert.equal(attributes.controlsShown, true, `${tag}: controls shown`);
    assert.equal(attributes.theme, 'light', tag);
    assert.ok(attributes.csv.length > 0, tag);
    assert.deepEqual(strings, attributes, `${tag}: properties set to strings`);
    assert.deepEqual(values, attributes, `${tag}: properties set to numbers, arrays and booleans`);
  }
  assert.deepEqual(log.errors, []);
});

/** Sets one property after another on a gallery element; returns each step's setting, attribute and message. */
function afterEach(selector, property, attribute, values) {
  return page.locator(selector).evaluate(
    (node, [property, attribute, list]) =>
      list.map((value) => {
        let message = null;
        const listen = (event) => {
          message = event.detail.message;
        };
        node.addEventListener('posenc-invalid', listen);
        node[property] = value === '(undefined)' ? undefined : value;
        node.removeEventListener('posenc-invalid', listen);
        const setting = node[property];
        return {
          setting: Array.isArray(setting) ? [...setting] : setting,
          attribute: node.getAttribute(attribute),
          message,
        };
      }),
    [property, attribute, values],
  );
}

test('booleans: true, "", "true" show; false, "false", null, undefined hide; as an attribute, "false" hides too', async () => {
  const selector = '#gallery-rope-heatmap';
  const steps = await afterEach(selector, 'controls', 'controls', [
    true,
    false,
    '',
    'false',
    'true',
    null,
    'true',
    '(undefined)',
  ]);
  assert.deepEqual(
    steps.map(({ setting, attribute }) => [setting, attribute]),
    [
      [true, ''],
      [false, null],
      [true, ''],
      [false, null],
      [true, ''],
      [false, null],
      [true, ''],
      [false, null],
    ],
  );
  const shown = await page.locator(selector).evaluate((node) => {
    const hidden = () => node.shadowRoot.querySelector('[part~="controls"]').hidden;
    const seen = [];
    for (const text of ['', 'false', 'true']) {
      node.setAttribute('controls', text);
      seen.push([text, node.controls, !hidden()]);
    }
    node.removeAttribute('controls');
    seen.push([null, node.controls, !hidden()]);
    return seen;
  });
  assert.deepEqual(shown, [
    ['', true, true],
    ['false', false, false],
    ['true', true, true],
    [null, false, false],
  ]);
});

test('an unusable property is named with what it got and its type, and the setting stays; null is the default', async () => {
  const selector = '#gallery-pe-heatmap';
  const base = await afterEach(selector, 'base', 'base', ['500', 'abc', 2500, ' 1e3 ', true, '1e999', null]);
  assert.deepEqual(base, [
    { setting: 500, attribute: '500', message: null },
    {
      setting: 500,
      attribute: '500',
      message: 'base = "abc" (a string) cannot be used (it is not a number); it stays 500.',
    },
    { setting: 2500, attribute: '2500', message: null },
    { setting: 1000, attribute: '1000', message: null },
    {
      setting: 1000,
      attribute: '1000',
      message: 'base = true (a boolean) cannot be used (it is not a number); it stays 1000.',
    },
    {
      setting: 1000,
      attribute: '1000',
      message: 'base = "1e999" (a string) cannot be used (it is not a finite number); it stays 1000.',
    },
    { setting: 10000, attribute: '10000', message: null },
  ]);
  // Out of range, not whole, odd: held to the spec as the attribute is, and said so.
  const dModel = await afterEach(selector, 'dModel', 'd-model', ['9999', 63, '31', '64.4']);
  assert.deepEqual(
    dModel.map(({ message }) => message),
    [
      'dModel = "9999" (a string) is outside 2…2048; using 2048.',
      'dModel = 63 (a number) is odd (this setting is even); using 64.',
      'dModel = "31" (a string) is odd (this setting is even); using 32.',
      'dModel = "64.4" (a string) is not a whole number; using 64.',
    ],
  );
  const layout = await afterEach(selector, 'layout', 'layout', [1, ['concat'], 'concat', '(undefined)']);
  assert.deepEqual(
    layout.map(({ setting, message }) => [setting, message]),
    [
      [
        'interleaved',
        'layout = 1 (a number) cannot be used (it is not one of interleaved, concat); it stays interleaved.',
      ],
      [
        'interleaved',
        'layout = ["concat"] (an array) cannot be used (it is not one of interleaved, concat); it stays interleaved.',
      ],
      ['concat', null],
      ['interleaved', null],
    ],
  );
  const controls = await afterEach(selector, 'controls', 'controls', ['yes', 1]);
  assert.deepEqual(
    controls.map(({ message }) => message),
    [
      'controls = "yes" (a string) cannot be used (it is not true or false); it stays true.',
      'controls = 1 (a number) cannot be used (it is not true or false); it stays true.',
    ],
  );
  const dims = await afterEach('#gallery-wavelengths', 'dims', 'dims', ['1, 2', ['3', 4], { 0: 1 }, [1, 'x'], '9999']);
  assert.deepEqual(
    dims.map(({ setting, message }) => [setting, message]),
    [
      [[1, 2], null],
      [[3, 4], null],
      [[3, 4], 'dims = [object Object] (an object) cannot be used (it is not a list of numbers); it stays 3,4.'],
      [[3, 4], 'dims = [1, "x"] (an array) cannot be used (it holds something that is not a number); it stays 3,4.'],
      [[2047], 'dims = "9999" (a string) has numbers outside 0…2047; using 2047.'],
    ],
  );
  await page.locator('#gallery-wavelengths').evaluate((node) => {
    node.dims = null;
  });
  assert.deepEqual(log.errors, []);
});
