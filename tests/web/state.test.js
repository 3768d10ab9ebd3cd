// The page's URL settings (widgets/state.js) in Node: links written by hand, by an attacker or
// cut short are read setting by setting, and every value the page can hold reopens from its link.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cutText, LINK_LIMIT, SettingsState } from '../../widgets/state.js';

const SPECS = {
  'pe.seq': { type: 'int', default: 128, min: 1, max: 2000 },
  'pe.d': { type: 'int', default: 128, min: 2, max: 2048, even: true },
  'demo.d': { type: 'int', default: 8, min: 2, max: 256, even: true },
  'demo.pair': {
    type: 'int',
    default: 0,
    min: 0,
    max: 127,
    maxFrom: (get) => get('demo.d') / 2 - 1,
    maxNote: 'pair < d / 2',
  },
  'pe.layout': { type: 'enum', default: 'interleaved', values: ['interleaved', 'concat'] },
  'order.a': { type: 'text', default: 'The cat', maxLength: 120 },
  'cmp.q': { type: 'numbers', default: [1, 2], minLength: 1, maxLength: 256, min: -100, max: 100 },
};

/**
 * set() schedules a write to the address bar: a stand-in location and history for Node, and the
 * write done before they go (writeNow clears the timer).
 */
function withFakeLocation(state, run) {
  const saved = { location: globalThis.location, history: globalThis.history };
  globalThis.location = new URL('http://127.0.0.1/');
  globalThis.history = { state: null, replaceState: (_s, _t, href) => (globalThis.location = new URL(href)) };
  try {
    run();
    state.writeNow();
    return globalThis.location.search;
  } finally {
    Object.assign(globalThis, saved);
  }
}

describe('SettingsState', () => {
  for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']) {
    it(`ignores the key ${key} (never looked up on a prototype)`, () => {
      const state = new SettingsState(SPECS);
      const problems = state.readQuery(`?${key}=1&pe.seq=64`);
      assert.deepEqual(problems, [`Ignored the unknown setting "${key}".`]);
      assert.equal(state.get('pe.seq'), 64, 'the other settings are read');
      assert.throws(() => state.get(key), /no setting named/);
    });
  }

  it('says an odd value of an even setting is odd, not out of range', () => {
    const state = new SettingsState(SPECS);
    assert.deepEqual(state.readQuery('pe.d=7'), ['pe.d="7" is odd (this setting is even); using 8.']);
    assert.deepEqual(state.readQuery('pe.d=99999999'), ['pe.d="99999999" is outside 2…2048; using 2048.']);
    assert.equal(state.get('pe.d'), 2048);
  });

  it('lowers a setting whose limit comes from another one, and says so', () => {
    const state = new SettingsState(SPECS);
    const problems = state.readQuery('demo.d=4&demo.pair=3');
    assert.equal(state.get('demo.pair'), 1);
    assert.deepEqual(problems, [
      'demo.pair="3" is above 1, its largest value with this link\'s other settings (pair < d / 2); using 1.',
    ]);
    assert.equal(state.query(), 'demo.d=4&demo.pair=1', 'the link says what the page shows');
    withFakeLocation(state, () => {
      state.set('demo.d', 16);
      state.set('demo.pair', 7);
      state.set('demo.d', 8);
      assert.equal(state.get('demo.pair'), 3, 'lowered with demo.d');
      state.set('demo.pair', 50);
      assert.equal(state.get('demo.pair'), 3);
    });
  });

  it('reopens a long list (256 numbers: a 5,000-character link) without touching the others', () => {
    const state = new SettingsState(SPECS);
    const q = Array.from({ length: 256 }, (_, i) => -99.123456 + i * 0.77);
    withFakeLocation(state, () => {
      state.set('cmp.q', q);
      state.set('pe.seq', 300);
      state.set('order.a', 'A sentence of the reader');
    });
    const link = state.query();
    assert.ok(link.length > 4000, `${link.length} characters`);
    const fresh = new SettingsState(SPECS);
    assert.deepEqual(fresh.readQuery(link), []);
    assert.deepEqual(fresh.get('cmp.q'), q);
    assert.equal(fresh.get('pe.seq'), 300);
    assert.equal(fresh.get('order.a'), 'A sentence of the reader');
  });

  it('holds values set by a script to their spec, so the page never writes a huge link', () => {
    const state = new SettingsState(SPECS);
    withFakeLocation(state, () => {
      state.set('order.a', 'x'.repeat(1_000_000));
      state.set('cmp.q', Array(100_000).fill(1));
      state.set('pe.layout', 'spiral');
      state.set('pe.seq', Number.NaN);
    });
    assert.equal(state.get('order.a').length, 120);
    assert.equal(state.get('cmp.q').length, 256);
    assert.equal(state.get('pe.layout'), 'interleaved');
    assert.equal(state.get('pe.seq'), 128);
    assert.ok(state.query().length < 1000, `${state.query().length} characters`);
  });

  it('reports one over-long or broken setting by name and keeps every other one', () => {
    const state = new SettingsState(SPECS);
    const problems = state.readQuery(`pe.seq=${'9'.repeat(5000)}&pe.d=64&cmp.q=${'1,'.repeat(300)}1&demo.d=16`);
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems[0], /^pe\.seq="9{30}…" is not a finite number; using the default 128\.$/);
    assert.match(problems[1], /^cmp\.q="1,1,.*…" needs 1…256 comma-separated numbers; using the default 1,2\.$/);
    assert.equal(state.get('pe.d'), 64);
    assert.equal(state.get('demo.d'), 16);
  });

  it('says a fraction in a whole-number setting is not a whole number', () => {
    const state = new SettingsState(SPECS);
    assert.deepEqual(state.readQuery('pe.d=7.5&demo.d=8&demo.pair=2.5'), [
      'pe.d="7.5" is not a whole number; using 8.',
      'demo.pair="2.5" is not a whole number; using 3.',
    ]);
    assert.equal(state.get('demo.pair'), 3);
  });

  it('reports a repeated key and uses its last value', () => {
    const state = new SettingsState(SPECS);
    assert.deepEqual(state.readQuery('pe.d=64&pe.seq=5&pe.d=32&order.a=x&order.a=y'), [
      'pe.d appears 2 times; using the last, 32.',
      'order.a appears 2 times; using the last, "y".',
    ]);
    assert.equal(state.get('pe.d'), 32);
    assert.equal(state.query(), 'pe.seq=5&pe.d=32&order.a=y', 'one of each');
  });

  it('says one thing per setting: no message names a value that a later rule replaces', () => {
    const state = new SettingsState(SPECS);
    // Not a number, then lowered by demo.d: one message, ending on the value used.
    assert.deepEqual(state.readQuery('demo.d=4&demo.pair=abc'), [
      'demo.pair="abc" is not a number; using the default 0.',
    ]);
    assert.deepEqual(state.readQuery('demo.d=4&demo.pair=999'), [
      'demo.pair="999" is outside 0…127; and with this link\'s other settings it is at most 1 (pair < d / 2); using 1.',
    ]);
    assert.equal(state.get('demo.pair'), 1);
    // Repeated with a bad last value: the repetition and the last value's problem, once.
    assert.deepEqual(state.readQuery('pe.seq=200&pe.seq=abc'), [
      'pe.seq appears 2 times; the last counts. pe.seq="abc" is not a number; using the default 128.',
    ]);
    // Only the last of a repeated key is read: a bad earlier value is not reported.
    assert.deepEqual(state.readQuery('pe.seq=abc&pe.seq=200'), ['pe.seq appears 2 times; using the last, 200.']);
  });

  it('groups unknown keys, and omitted= claims only settings the link does not give', () => {
    const state = new SettingsState(SPECS);
    const many = Array.from({ length: 10000 }, (_, i) => `x${i}=1`).join('&');
    assert.deepEqual(state.readQuery(`${many}&pe.seq=100`), [
      'Ignored 10,000 unknown settings: "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7" and 9,992 more.',
    ]);
    assert.equal(state.get('pe.seq'), 100);
    assert.deepEqual(state.readQuery('order.a=hi&omitted=order.a'), []);
    assert.equal(state.get('order.a'), 'hi');
    assert.deepEqual(state.readQuery('omitted=pe.seq,zz&pe.d=64'), [
      'The page that made this link left out pe.seq (too long for a link); it has its default here.',
      'Ignored what omitted= names that is not a setting: "zz".',
    ]);
  });

  it('a text setting is one line, and a value that is not valid percent-encoding is named', () => {
    const state = new SettingsState(SPECS);
    assert.deepEqual(state.readQuery('order.a=a%0Ab%0Dc%09d'), [
      'order.a holds one line; its line breaks and tabs became spaces.',
    ]);
    assert.equal(state.get('order.a'), 'a b c d');
    assert.equal(state.query(), 'order.a=a+b+c+d');
    assert.deepEqual(state.readQuery('order.a=%E0%A4%A&pe.d=%ZZ'), [
      "order.a's value is not valid percent-encoding; what cannot be read shows as �.",
      'pe.d="%ZZ" is not a number; using the default 128.',
    ]);
  });

  it('refuses a limit from other settings (maxFrom) without the note that explains it', () => {
    const { maxNote, ...withoutNote } = SPECS['demo.pair'];
    assert.ok(maxNote);
    assert.throws(
      () => new SettingsState({ ...SPECS, 'demo.pair': withoutNote }),
      /demo\.pair has maxFrom but no maxNote/,
    );
  });

  it('cuts text at a character boundary, never inside a surrogate pair', () => {
    const text = `cats ${'😀'.repeat(100)}`; // 'cats ' is 5 code units: unit 120 is a pair's first half
    assert.equal(cutText(text, 120), `cats ${'😀'.repeat(57)}`);
    assert.equal(cutText(text, 121), `cats ${'😀'.repeat(58)}`);
    assert.equal(cutText('abc', 120), 'abc');
    const state = new SettingsState(SPECS);
    withFakeLocation(state, () => state.set('order.a', text));
    assert.ok(state.get('order.a').isWellFormed(), 'no lone surrogate');
    assert.deepEqual(state.readQuery(`order.a=${encodeURIComponent(text)}`), [
      'order.a holds at most 120 characters; the text was cut to that length.',
    ]);
    assert.equal(state.get('order.a'), `cats ${'😀'.repeat(57)}`);
  });

  describe('links longer than LINK_LIMIT', () => {
    const address = 'http://127.0.0.1:8080/site/#order';
    // Numbers as long as a float64 gets (-1.2345678901234567e-99: 23 characters); q the longer list.
    const many = (n, first) => Array.from({ length: n }, (_, i) => -(first + i * 1.2345678901234567e-3) * 1e-99);

    it('keeps every setting of a link just under the limit', () => {
      const state = new SettingsState({ ...SPECS, 'cmp.q': { ...SPECS['cmp.q'], maxLength: 2000 } });
      withFakeLocation(state, () => state.set('pe.seq', 300));
      // Fill cmp.q with as many numbers as fit, then end on one-digit numbers to land at LINK_LIMIT − 1.
      const values = [];
      const lengthWith = (vs) => {
        withFakeLocation(state, () => state.set('cmp.q', vs));
        // The link as sent to a server (its #fragment never is), if nothing is left out.
        return address.split('#')[0].length + 1 + state.query().length;
      };
      while (lengthWith([...values, 12.345678]) < LINK_LIMIT - 10) values.push(12.345678);
      while (lengthWith([...values, 1]) < LINK_LIMIT) values.push(1);
      if (lengthWith(values) === LINK_LIMIT - 2) values[values.length - 1] = 10;
      lengthWith(values);
      const { href, leftOut } = state.link(address);
      const sent = (link) => link.length - new URL(link).hash.length;
      assert.equal(sent(href), LINK_LIMIT - 1);
      assert.ok(href.length >= LINK_LIMIT, 'the fragment does not count against the limit');
      assert.deepEqual(leftOut, []);
      assert.ok(href.endsWith('#order'), 'the fragment stays a fragment');
      const fresh = new SettingsState({ ...SPECS, 'cmp.q': { ...SPECS['cmp.q'], maxLength: 2000 } });
      assert.deepEqual(fresh.readQuery(new URL(href).search), []);
      assert.deepEqual(fresh.get('cmp.q'), values);
      // One more character and the list is left out (it is the longest), the rest kept.
      withFakeLocation(state, () => state.set('cmp.q', [...values.slice(0, -1), values.at(-1) * 10]));
      const over = state.link(address);
      assert.deepEqual(
        over.leftOut.map(({ key }) => key),
        ['cmp.q'],
      );
      assert.ok(sent(over.href) < LINK_LIMIT);
      assert.equal(new URL(over.href).searchParams.get('pe.seq'), '300');
    });

    it('leaves out the fewest, longest settings, names them in the link, and the reader is told', () => {
      const specs = {
        ...SPECS,
        'cmp.k': SPECS['cmp.q'],
        'order.b': { ...SPECS['order.a'], maxLength: 200 },
      };
      const state = new SettingsState(specs);
      withFakeLocation(state, () => {
        state.set('cmp.q', many(256, 1.1));
        state.set('cmp.k', many(256, 1.2));
        state.set('order.a', 'ࠀ'.repeat(120)); // 9 characters each in a link
        state.set('order.b', 'ࠀ'.repeat(200));
        state.set('pe.seq', 300);
      });
      assert.ok(state.query().length > LINK_LIMIT + 3000, `${state.query().length}`);
      const { href, leftOut } = state.link(address);
      assert.ok(href.length < LINK_LIMIT, `${href.length}`);
      const cmpQ = `cmp.q=${many(256, 1.1).join(',')}`.length;
      const cmpK = `cmp.k=${many(256, 1.2).join(',')}`.length;
      assert.deepEqual(leftOut, [
        { key: 'cmp.q', length: cmpQ },
        { key: 'cmp.k', length: cmpK },
      ]);
      const fresh = new SettingsState(specs);
      assert.deepEqual(fresh.readQuery(new URL(href).search), [
        'The page that made this link left out cmp.q, cmp.k (too long for a link); they have their defaults here.',
      ]);
      assert.equal(fresh.get('order.a'), 'ࠀ'.repeat(120));
      assert.equal(fresh.get('order.b'), 'ࠀ'.repeat(200));
      assert.equal(fresh.get('pe.seq'), 300);
      assert.deepEqual(fresh.get('cmp.q'), [1, 2]);
      assert.equal(fresh.link(address).href.includes('omitted'), false, 'its own link names nothing left out');
    });

    it('ignores an omitted= list that names no setting', () => {
      const state = new SettingsState(SPECS);
      assert.deepEqual(state.readQuery('omitted=__proto__,x'), [
        'Ignored what omitted= names that is not a setting: "__proto__", "x".',
      ]);
    });
  });
});
