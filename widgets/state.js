// A set of settings, each held to its spec, and the listeners told when they change: the page's
// settings and each element's own (an element's come from its attributes and properties and never
// enter a URL). The URL is one place settings are written: the page's are kept in its query
// (?pe.seq=256&pe.layout=concat...), so any view of the page is a shareable permalink, and only
// settings that differ from their defaults are written there. (The query, not the fragment:
// fragments stay free for the table of contents' #section links.)
//
// Each setting has a spec: { type: 'int'|'number'|'enum'|'boolean'|'text'|'numbers', default, ... }; an
// 'int' may add `even` and `maxFrom(get)`, a limit that depends on other settings (a pair index
// below d/2). Anything unreadable in a link falls back to the default and out-of-range values are
// clamped, each with a message naming the setting: a hand-edited or truncated link must never leave
// the page broken or make it compute something huge, and one bad setting never resets the others.
// Values are held to the same rules when set (a script typing past maxLength included), so every
// link the page writes reopens what it showed. Right after a link is read, the address bar is
// rewritten to the settings in effect (unknown keys dropped, corrected values written).
//
// A link longer than LINK_LIMIT characters fails on many servers (RFC 9110 asks them to accept
// 8,000 octets; Node's 16 KB header limit answers 431): the page leaves the longest settings out
// (the fewest possible), names them in the link (`omitted=`) and says so, never silently.

const WRITE_DELAY_MS = 200; // browsers throttle history updates; a dragged slider fires many
export const LINK_LIMIT = 8000; // every link the page writes is shorter than this, its #fragment aside
const OMITTED_KEY = 'omitted'; // not a setting: the settings a too-long link left out

function describeValue(raw) {
  const text = JSON.stringify(raw.length > 30 ? `${cutText(raw, 30)}…` : raw);
  return text;
}

/** `text` cut to at most `maxLength` UTF-16 code units, never inside a character (a surrogate pair). */
export function cutText(text, maxLength) {
  if (text.length <= maxLength) return text;
  const last = text.charCodeAt(maxLength - 1);
  const splitsPair = last >= 0xd800 && last <= 0xdbff; // a high surrogate whose partner would be cut
  return text.slice(0, splitsPair ? maxLength - 1 : maxLength);
}

/** `text` on one line: control characters (line breaks, tabs) become spaces. */
function oneLine(text) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

/** The message for a text setting cut to its spec's maxLength (from a link, a control or a script). */
export function textCutMessage(key, spec) {
  return `${key} holds at most ${spec.maxLength} characters; the text was cut to that length.`;
}

const NAMED_KEYS = 8; // a message names this many keys and counts the rest

/** Keys quoted for a message: the first few named, the rest counted ("a", …, "h" and 9,992 more). */
function namedKeys(keys) {
  const rest = keys.length - NAMED_KEYS;
  const more = rest > 0 ? ` and ${rest.toLocaleString('en-US')} more` : '';
  return `${keys.slice(0, NAMED_KEYS).map(describeValue).join(', ')}${more}`;
}

/** One message for the unknown keys of a link, however many. */
function unknownMessage(keys) {
  if (keys.length === 1) return `Ignored the unknown setting ${namedKeys(keys)}.`;
  return `Ignored ${keys.length.toLocaleString('en-US')} unknown settings: ${namedKeys(keys)}.`;
}

/**
 * The keys of a query whose value is not valid UTF-8 percent-encoding: URLSearchParams reads those
 * bytes as U+FFFD, which the link did not contain.
 */
function keysWithBrokenEncoding(text) {
  const keys = new Set();
  for (const pair of text.split('&')) {
    const value = pair.slice(pair.indexOf('=') + 1);
    for (const [key, read] of new URLSearchParams(pair))
      if (pair.includes('=') && read.includes('\uFFFD') && !/%EF%BF%BD|\uFFFD/i.test(value)) keys.add(key);
  }
  return keys;
}

const NUMBER_TEXT = /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i;

/** A number as a spec reads it: a finite number, or a string in decimal notation; else why not. */
function readNumber(value) {
  if (typeof value === 'string') {
    if (!NUMBER_TEXT.test(value)) return { why: 'is not a number' };
    value = Number(value);
  } else if (typeof value !== 'number' || Number.isNaN(value)) return { why: 'is not a number' };
  return Number.isFinite(value) ? { value } : { why: 'is not a finite number' };
}

/** One entry of a list: a finite number, or a string that holds one (as the list's text has it). */
function listEntry(entry) {
  if (typeof entry === 'number') return entry;
  return typeof entry === 'string' && entry.trim() !== '' ? Number(entry) : Number.NaN;
}

/**
 * Reads a value by its spec, whether written (a link, an attribute: always a string) or set by a
 * script or a framework (a property: a number, a boolean, a list as an array, or the same strings
 * as written). The one rule for every setting of the page and the elements:
 *   int, number  a number or a decimal string ("100", " 1e4 "); clamped into range, rounded, made even
 *   enum         one of its values, exactly
 *   boolean      true, '' (an attribute that is present) or 'true'; false or 'false'
 *   numbers      an array of numbers or numeric strings, or the comma-separated text of one
 *   text         a string
 * Returns { value } when it is used as it is, { value, why } when it was held to the spec and
 * { why } when it cannot be used; `why` is a phrase ("is not a number").
 */
export function readSetting(spec, value) {
  switch (spec.type) {
    case 'int':
    case 'number': {
      const read = readNumber(value);
      if (read.why) return read;
      const clamped = clampSetting(spec, read.value);
      if (clamped === read.value) return read;
      let why = 'is odd (this setting is even)';
      if (read.value < spec.min || read.value > spec.max) why = `is outside ${spec.min}…${spec.max}`;
      else if (!Number.isInteger(read.value)) why = 'is not a whole number';
      return { value: clamped, why };
    }
    case 'enum':
      return spec.values.includes(value) ? { value } : { why: `is not one of ${spec.values.join(', ')}` };
    case 'boolean':
      if (value === true || value === '' || value === 'true') return { value: true };
      if (value === false || value === 'false') return { value: false };
      return { why: 'is not true or false' };
    case 'text':
      return typeof value === 'string' ? { value: cutText(oneLine(value), spec.maxLength) } : { why: 'is not text' };
    case 'numbers': {
      const written = typeof value === 'string';
      if (!written && !Array.isArray(value)) return { why: 'is not a list of numbers' };
      // An empty list is allowed where it is the default (e.g. a widget's "no fixed domain").
      if (!written && value.length === 0 && spec.default.length === 0) return { value: [] };
      const parts = written ? value.split(',') : value;
      if (parts.length < spec.minLength || parts.length > spec.maxLength) {
        const count = spec.minLength === spec.maxLength ? spec.minLength : `${spec.minLength}…${spec.maxLength}`;
        return { why: `needs ${count} ${written ? 'comma-separated ' : ''}numbers` };
      }
      const values = Array.from(parts, listEntry);
      if (!values.every(Number.isFinite)) return { why: 'holds something that is not a number' };
      const clamped = values.map((v) => Math.min(spec.max, Math.max(spec.min, v)));
      if (clamped.some((v, i) => v !== values[i]))
        return { value: clamped, why: `has numbers outside ${spec.min}…${spec.max}` };
      return { value: values };
    }
    default:
      throw new Error(`state: unknown setting type ${spec.type}`);
  }
}

/** Parses one raw string (a link's, an attribute's) by its spec: { value } or { value: default/clamped, problem }. */
export function parseSetting(key, spec, raw) {
  if (spec.type === 'text') {
    // A text setting is one line (a text box cannot show a line break or a tab).
    const line = oneLine(raw);
    const broken = line === raw ? '' : `${key} holds one line; its line breaks and tabs became spaces.`;
    const cut = line.length > spec.maxLength ? textCutMessage(key, spec) : '';
    const problem = [broken, cut].filter(Boolean).join(' ');
    return problem ? { value: cutText(line, spec.maxLength), problem } : { value: line };
  }
  const { value, why } = readSetting(spec, raw);
  if (!why) return { value };
  const written = `${key}=${describeValue(raw)} ${why}`;
  if (value === undefined)
    return { value: spec.default, problem: `${written}; using the default ${describeSetting(spec, spec.default)}.` };
  return { value, problem: `${written}; using ${describeSetting(spec, value)}.` };
}

/**
 * Clamps a number into its spec's range (integers: also rounded, and made even if required);
 * `max` is the limit other settings impose (spec.maxFrom), when lower than the spec's own.
 */
export function clampSetting(spec, value, max = spec.max) {
  let v = Math.min(Math.min(spec.max, max), Math.max(spec.min, value));
  if (spec.type === 'int') {
    v = Math.round(v);
    if (spec.even && v % 2 !== 0) v = v + 1 <= Math.min(spec.max, max) ? v + 1 : v - 1;
  }
  return v;
}

/** A value as a link or an attribute writes it (an empty list or text: nothing at all). */
export function formatValue(spec, value) {
  return spec.type === 'numbers' ? value.join(',') : String(value);
}

/** A value as a message names it: as written, and an empty list or text said in words. */
export function describeSetting(spec, value) {
  const text = formatValue(spec, value);
  if (text !== '') return text;
  return spec.type === 'numbers' ? '(an empty list)' : '(empty text)';
}

/**
 * A value set from the page (a control, a script) held to its spec: numbers clamped, text cut to
 * maxLength, lists cut to maxLength entries and clamped; undefined when it cannot be used at all.
 */
export function normalizeSetting(spec, value, max = spec.max) {
  switch (spec.type) {
    case 'int':
    case 'number':
      return typeof value === 'number' && !Number.isNaN(value) ? clampSetting(spec, value, max) : undefined;
    case 'enum':
      return spec.values.includes(value) ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'text':
      return cutText(oneLine(String(value)), spec.maxLength);
    case 'numbers': {
      // An empty list is allowed where it is the default (e.g. a widget's "no fixed domain").
      if (Array.isArray(value) && value.length === 0 && spec.default.length === 0) return [];
      if (!Array.isArray(value) || value.length < spec.minLength) return undefined;
      const values = value.slice(0, spec.maxLength).map(Number);
      return values.every(Number.isFinite) ? values.map((v) => Math.min(spec.max, Math.max(spec.min, v))) : undefined;
    }
    default:
      return undefined;
  }
}

/** 'key=value' as written in a query; commas are safe there and keep lists readable. */
function encodePair(key, value) {
  return new URLSearchParams([[key, value]]).toString().replaceAll('%2C', ',');
}

function sameValue(a, b) {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}

export class SettingsState {
  #specs; // a Map: a key read from a link is never looked up on an object's prototype
  #values = new Map();
  #listeners = new Set();
  #writeListeners = new Set();
  #writeTimer = 0;
  #inUrl;

  /**
   * @param {Record<string, object>} specs setting key -> spec
   * @param {{ inUrl?: boolean }} options inUrl: false keeps the settings out of the address bar
   *   (an element's own settings: a page may hold many)
   */
  constructor(specs, { inUrl = true } = {}) {
    this.#inUrl = inUrl;
    this.#specs = new Map(Object.entries(specs));
    for (const [key, spec] of this.#specs) {
      // The messages about a lowered value say why (spec.maxNote): a missing note is a bug.
      if (spec.maxFrom && !spec.maxNote) throw new Error(`state: ${key} has maxFrom but no maxNote`);
      this.#values.set(key, spec.default);
    }
  }

  spec(key) {
    const spec = this.#specs.get(key);
    if (!spec) throw new Error(`state: no setting named ${key}`);
    return spec;
  }

  get(key) {
    this.spec(key);
    return this.#values.get(key);
  }

  /** The largest value `key` may take with the other settings as they are. */
  max(key) {
    const spec = this.spec(key);
    return spec.maxFrom
      ? Math.min(
          spec.max,
          spec.maxFrom((other) => this.get(other)),
        )
      : spec.max;
  }

  /**
   * Sets a value, held to its spec (values it cannot use are ignored), and tells the listeners;
   * the URL follows shortly.
   */
  set(key, value) {
    const spec = this.spec(key);
    const next = normalizeSetting(spec, value, this.max(key));
    if (next === undefined || sameValue(next, this.#values.get(key))) return;
    this.#values.set(key, next);
    this.#notify([key, ...this.#clampDependents()]);
    this.#scheduleWrite();
  }

  /** Calls `listener()` after changes to the named settings ('pe.seq') or groups ('pe.'). */
  watch(names, listener) {
    const matches = (key) => names.some((name) => (name.endsWith('.') ? key.startsWith(name) : key === name));
    return this.subscribe((keys) => {
      if (keys.some(matches)) listener();
    });
  }

  /** Calls `listener(changedKeys)` after every change. */
  subscribe(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Reads every setting from a URL query (with or without the leading '?'). Settings that
   * are absent get their defaults; each setting that cannot be used as written is reported and
   * replaced on its own. Returns the problems found, as human-readable sentences.
   */
  readQuery(query) {
    const text = query.startsWith('?') ? query.slice(1) : query;
    const next = new Map();
    for (const [key, spec] of this.#specs) next.set(key, spec.default);
    // A key given several times counts once, with its last value; what was wrong with a setting
    // is one message (notes), so no message names a value that another one replaces.
    const raws = new Map();
    const counts = new Map();
    const unknown = [];
    const omitted = [];
    for (const [key, raw] of new URLSearchParams(text)) {
      if (key === OMITTED_KEY) omitted.push(...raw.split(','));
      else if (!this.#specs.has(key)) unknown.push(key);
      else {
        raws.set(key, raw);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    const notes = new Map();
    const unreadable = keysWithBrokenEncoding(text);
    for (const [key, raw] of raws) {
      const spec = this.#specs.get(key);
      const { value, problem } = parseSetting(key, spec, raw);
      next.set(key, value);
      const sentences = [];
      const count = counts.get(key);
      if (count > 1 && !problem) {
        const last = spec.type === 'text' ? describeValue(raw) : describeSetting(spec, value);
        sentences.push(`${key} appears ${count} times; using the last, ${last}.`);
      } else if (count > 1) sentences.push(`${key} appears ${count} times; the last counts.`);
      if (unreadable.has(key))
        sentences.push(`${key}'s value is not valid percent-encoding; what cannot be read shows as �.`);
      if (problem) sentences.push(problem);
      if (sentences.length) notes.set(key, sentences.join(' '));
    }
    const changed = [];
    for (const [key, value] of next) {
      if (!sameValue(value, this.#values.get(key))) changed.push(key);
      this.#values.set(key, value);
    }
    for (const key of this.#clampDependents()) {
      if (!changed.includes(key)) changed.push(key);
      if (!raws.has(key)) continue;
      const [largest, why] = [this.#values.get(key), this.spec(key).maxNote];
      const earlier = notes.get(key);
      // A value already replaced (e.g. not a number): its "using …" gives way to the lowered one.
      notes.set(
        key,
        earlier
          ? earlier.replace(
              /; using [^;]*\.$/,
              `; and with this link's other settings it is at most ${largest} (${why}); using ${largest}.`,
            )
          : `${key}=${describeValue(raws.get(key))} is above ${largest}, its largest value with this link's other settings (${why}); using ${largest}.`,
      );
    }
    const problems = [...notes.values()];
    const named = [...new Set(omitted)].filter((key) => this.#specs.has(key) && !raws.has(key));
    if (named.length) problems.unshift(this.#omittedProblem(named));
    if (unknown.length) problems.push(unknownMessage(unknown));
    const notSettings = [...new Set(omitted.filter((key) => key && !this.#specs.has(key)))];
    if (notSettings.length)
      problems.push(`Ignored what omitted= names that is not a setting: ${namedKeys(notSettings)}.`);
    if (changed.length) this.#notify(changed);
    return problems;
  }

  /** The query (without '?') that restores the current settings, however long. */
  query() {
    return this.#changedSettings()
      .map(([, pair]) => pair)
      .join('&');
  }

  /**
   * The link to `address` (its query replaced) that restores the current settings, shorter than
   * LINK_LIMIT characters: if they do not fit, the longest settings are left out (the fewest that
   * must be) and named in the link. Returns { href, leftOut: [{ key, length }] } (length: of the
   * setting as written in a link).
   */
  link(address) {
    const url = new URL(address);
    const kept = this.#changedSettings().map(([key, pair]) => ({ key, pair }));
    const leftOut = [];
    const hrefOf = () => {
      const pairs = kept.map(({ pair }) => pair);
      if (leftOut.length) pairs.push(encodePair(OMITTED_KEY, leftOut.map(({ key }) => key).join(',')));
      url.search = pairs.join('&');
      return url.href;
    };
    let href = hrefOf();
    // The fragment (#section) never reaches a server: only the rest counts against the limit.
    while (href.length - url.hash.length >= LINK_LIMIT && kept.length) {
      const longest = kept.reduce((a, b) => (b.pair.length > a.pair.length ? b : a));
      kept.splice(kept.indexOf(longest), 1);
      leftOut.push({ key: longest.key, length: longest.pair.length });
      href = hrefOf();
    }
    return { href, leftOut };
  }

  /** Writes the link into the address bar now (without adding a history entry). */
  writeNow() {
    clearTimeout(this.#writeTimer);
    this.#writeTimer = 0;
    const { href, leftOut } = this.link(location.href);
    if (href !== location.href) history.replaceState(history.state, '', href);
    for (const listener of this.#writeListeners) listener(location.href, leftOut);
  }

  /** Calls `listener(url, leftOut)` whenever the address bar was updated (leftOut: see link()). */
  onWrite(listener) {
    this.#writeListeners.add(listener);
  }

  /** [key, 'key=value' as written in a link] for every setting that differs from its default. */
  #changedSettings() {
    const changed = [];
    for (const [key, spec] of this.#specs) {
      const value = this.#values.get(key);
      if (!sameValue(value, spec.default)) changed.push([key, encodePair(key, formatValue(spec, value))]);
    }
    return changed;
  }

  /** The message for the settings a link's `omitted=` list names (a too-long link left them out). */
  #omittedProblem(keys) {
    return `The page that made this link left out ${keys.join(', ')} (too long for a link); ${keys.length === 1 ? 'it has its default' : 'they have their defaults'} here.`;
  }

  /** Lowers the settings whose limit depends on others (spec.maxFrom); returns their keys. */
  #clampDependents() {
    const lowered = [];
    for (const [key, spec] of this.#specs) {
      if (!spec.maxFrom) continue;
      const value = clampSetting(spec, this.#values.get(key), this.max(key));
      if (value !== this.#values.get(key)) {
        this.#values.set(key, value);
        lowered.push(key);
      }
    }
    return lowered;
  }

  #scheduleWrite() {
    if (!this.#inUrl) return;
    clearTimeout(this.#writeTimer);
    this.#writeTimer = setTimeout(() => this.writeNow(), WRITE_DELAY_MS);
  }

  #notify(keys) {
    for (const listener of this.#listeners) listener(keys);
  }
}
