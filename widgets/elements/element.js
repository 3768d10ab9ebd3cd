// The base of the posenc custom elements (<posenc-pe-heatmap>, ...): a shadow root styled by the
// page's palette and plot CSS, settings as kebab-case attributes and camelCase properties held to
// the same specs as the tutorial's URL settings (state.js), one redraw per animation frame,
// events, exports and optional built-in controls.
//
// A subclass declares `static settings = { 'seq-len': { spec, control }, ... }` (spec: a state.js
// spec; control(state, key): the tutorial's control for it) and implements
//   build()                  once: the figure's nodes, appended to this.body; returns the <figure>
//   draw(posenc, values)     values keyed by attribute name; called at most once per animation
//                            frame (with `static progressive = true`, a generator: its steps run
//                            over the next animation frames, schedule.js's
//                            progressiveToAnimationFrame, and a newer change drops them)
//   csv()                    the drawn data as CSV text
// and reports picked cells with this.pick(detail).
//
// Every element also has `theme` (system | light | dark) and `controls` (a boolean: the built-in
// controls shown), held to the same rules.
//
// An attribute and a property go through one parser (state.js's readSetting): a property takes
// what frameworks pass (React and Svelte set properties from JSX and template attributes, as
// strings: base="100"), so `el.base = '100'` is `el.base = 100` is base="100". null or undefined
// is the attribute removed: the default.
//
// A bad attribute or property never throws: it is named in a message inside the element (a
// property's with what it got and its type), warned about once on the console and sent as a
// `posenc-invalid` event; a bad attribute leaves the setting at its default, a bad property leaves
// it as it was, and a number outside its range becomes the nearest allowed value.
import { h } from '../dom.js';
import { renderFigure } from '../plots/figure-image.js';
import { coalesceToAnimationFrame, progressiveToAnimationFrame } from '../schedule.js';
import { cutText, describeSetting, formatValue, parseSetting, readSetting, SettingsState } from '../state.js';
import { sharedPosenc } from './engine.js';
import widgetCss from '../styles/widget.css?inline';

let sheet = null;
/** One constructed stylesheet for every element's shadow root (allowed by a strict CSP). */
function widgetSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(widgetCss);
  }
  return sheet;
}

const warned = new Set(); // each problem's text, warned about once per page

// The settings every element has besides its own: its colour scheme (CSS reads only the
// attribute's exact values, widget.css's :host([theme=…]), so nothing else written there styles
// anything) and whether its built-in controls show. Neither changes the figure's numbers.
const BASE_SETTINGS = {
  theme: { spec: { type: 'enum', default: 'system', values: ['system', 'light', 'dark'] } },
  controls: { spec: { type: 'boolean', default: false } },
};

/** A value as its attribute: the text, or null for none (false, and an empty list: the defaults). */
function attributeText(spec, value) {
  if (spec.type === 'boolean') return value ? '' : null;
  const text = formatValue(spec, value);
  return text === '' ? null : text;
}

/** What a property was given, for a message: strings quoted, lists bracketed, all cut short. */
function shownValue(value) {
  try {
    const entry = (v) => (typeof v === 'string' ? JSON.stringify(v) : String(v));
    const text = Array.isArray(value)
      ? `[${value.slice(0, 8).map(entry).join(', ')}${value.length > 8 ? ', …' : ''}]`
      : entry(value);
    return text.length > 40 ? `${cutText(text, 40)}…` : text;
  } catch {
    return '(unreadable)'; // a hostile toString: the type still says what it was
  }
}

/** A value's type as a message says it: "a string", "an array", "null". */
function typeName(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'undefined' ? 'undefined' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** An element class's settings with the base's (theme): what attributes and properties cover. */
const allSettings = (ElementClass) => ({ ...BASE_SETTINGS, ...ElementClass.settings });

export const camelCase = (name) => name.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());

/**
 * Registers an element class under `tag` (once per page), with an observed attribute and a
 * camelCase property per setting, and the `controls` attribute.
 */
export function defineElement(tag, ElementClass) {
  const names = Object.keys(allSettings(ElementClass));
  Object.defineProperty(ElementClass, 'observedAttributes', { value: names });
  for (const name of names) {
    Object.defineProperty(ElementClass.prototype, camelCase(name), {
      get() {
        return this.getSetting(name);
      },
      set(value) {
        this.setSetting(name, value);
      },
      configurable: true,
    });
  }
  // A server (Node, a framework's prerender) has no registry: the classes exist there, unregistered.
  if (globalThis.customElements && !customElements.get(tag)) customElements.define(tag, ElementClass);
}

// Where there is no DOM (a server importing the module to render a page), the elements' base is
// a plain class: importing defines the same classes, and only constructing one needs a browser.
const ElementBase =
  globalThis.HTMLElement ??
  class {
    constructor() {
      throw new TypeError('posenc elements need a browser: a server renders their tags, which the browser upgrades');
    }
  };

export class PosencElement extends ElementBase {
  static settings = {};

  #state;
  #problems = new Map(); // attribute name -> sentence
  #message;
  #controls;
  #figure;
  #posenc = null;
  #loading = null;
  #fromAttribute = false;
  #lastSettings = '';
  #request;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [widgetSheet()];
    const settings = allSettings(this.constructor);
    this.#state = new SettingsState(
      Object.fromEntries(Object.entries(settings).map(([name, { spec }]) => [name, spec])),
      {
        inUrl: false,
      },
    );
    this.#message = h('div', { class: 'widget-message', part: 'message', role: 'status', hidden: true });
    this.#controls = h('div', { class: 'controls', part: 'controls', hidden: true });
    this.body = h('div', { class: 'widget-body' });
    root.append(this.#controls, this.#message, this.body);
    this.#request = this.constructor.progressive
      ? progressiveToAnimationFrame(() => this.#redrawSteps())
      : coalesceToAnimationFrame(() => this.#redrawSteps().next());
    this.#state.subscribe((keys) => {
      // A change from a control or a property shows in the attributes; one read from an
      // attribute leaves it as written (a bad one stays visible beside its message).
      if (!this.#fromAttribute) {
        for (const key of keys) {
          const text = attributeText(this.#state.spec(key), this.#state.get(key));
          if (text === null) this.removeAttribute(key);
          else this.setAttribute(key, text);
        }
      }
      if (keys.includes('controls')) this.#showControls();
      // The theme is CSS alone: the figure's numbers stay as drawn.
      if (keys.some((key) => !Object.hasOwn(BASE_SETTINGS, key))) this.#request();
    });
  }

  // build() runs on the first connection, not in this constructor: a subclass's own (private)
  // fields exist only once the constructor returns.
  connectedCallback() {
    if (!this.#figure) this.#adoptEarlyProperties();
    this.#figure ??= this.build();
    this.#showControls();
    if (!this.#posenc && !this.#loading) {
      this.#loading = sharedPosenc().then(
        (posenc) => {
          this.#posenc = posenc;
          this.#request();
        },
        (error) => this.#report('posenc', `posenc could not be loaded: ${error.message}`),
      );
    }
    this.#request();
  }

  attributeChangedCallback(name, _old, raw) {
    const spec = this.#state.spec(name);
    const { value, problem } = raw === null ? { value: spec.default } : parseSetting(name, spec, raw);
    this.#report(name, problem);
    this.#fromAttribute = true;
    try {
      this.#state.set(name, value);
    } finally {
      this.#fromAttribute = false;
    }
  }

  getSetting(name) {
    return this.#state.get(name);
  }

  /** Sets a setting as its property does: read by the attribute's rules, null or undefined the default. */
  setSetting(name, value) {
    const spec = this.#state.spec(name);
    if (value === null || value === undefined) {
      this.#report(name, null);
      this.#state.set(name, spec.default);
      return;
    }
    let read;
    try {
      read = readSetting(spec, value);
    } catch {
      read = { why: 'could not be read' }; // a list whose entries throw when read
    }
    const given = `${camelCase(name)} = ${shownValue(value)} (${typeName(value)})`;
    if (read.value === undefined) {
      const current = describeSetting(spec, this.#state.get(name));
      this.#report(name, `${given} cannot be used (it ${read.why}); it stays ${current}.`);
      return;
    }
    this.#report(name, read.why ? `${given} ${read.why}; using ${describeSetting(spec, read.value)}.` : null);
    this.#state.set(name, read.value);
  }

  /** The current settings, by property name (what posenc-change sends). */
  get settings() {
    return Object.fromEntries(
      Object.keys(this.constructor.settings).map((name) => [camelCase(name), this.getSetting(name)]),
    );
  }

  /** The problems with the current attributes or properties, as sentences (empty when none). */
  get problems() {
    return [...this.#problems.values()];
  }

  /** The figure as a PNG Blob, as shown (title, cells, axes, colour bar), on the element's background. */
  async toPNG() {
    if (!this.#figure) throw new Error(`<${this.localName}> is not on the page, so it has no picture`);
    const canvas = await renderFigure(this.#figure, { background: getComputedStyle(this).backgroundColor });
    return new Promise((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('the browser could not encode the PNG'))),
        'image/png',
      ),
    );
  }

  /** The drawn numbers as CSV text. */
  toCSV() {
    return this.#figure ? this.csv() : '';
  }

  /** Names the parts of a plot's <figure> (createHeatmap, createLinePlot) for ::part styling. */
  markParts(figure) {
    figure.part.add('figure');
    for (const [selector, part] of [
      ['.plot-title', 'title'],
      ['.plot-area', 'cells'],
      ['.legend', 'legend'],
      ['.readout', 'readout'],
      ['figcaption', 'summary'],
    ])
      figure.querySelector(selector)?.part.add(part);
  }

  /** Sends `posenc-pick` (a cell or position under the pointer or the keyboard; null when left). */
  pick(detail) {
    this.dispatchEvent(new CustomEvent('posenc-pick', { detail, bubbles: true, composed: true }));
  }

  /**
   * A page (or a framework) may set a property on the element before its class was defined: that
   * value sits on the instance and hides the accessor. It is taken over as a setting.
   */
  #adoptEarlyProperties() {
    for (const name of Object.keys(allSettings(this.constructor))) {
      const property = camelCase(name);
      if (!Object.hasOwn(this, property)) continue;
      const value = this[property];
      delete this[property];
      this.setSetting(name, value);
    }
  }

  /** Shows the built-in controls (made on first showing) or hides them, as the controls setting says. */
  #showControls() {
    const shown = this.#state.get('controls');
    if (shown && !this.#controls.hasChildNodes()) this.#buildControls();
    this.#controls.hidden = !shown;
  }

  #buildControls() {
    const settings = this.constructor.settings;
    const controls = Object.entries(settings)
      .filter(([, { control }]) => control)
      .map(([name, { control }]) => control(this.#state, name));
    this.#controls.replaceChildren(...controls);
  }

  #report(name, problem) {
    if (problem) {
      this.#problems.set(name, problem);
      const text = `<${this.localName}>: ${problem}`;
      if (!warned.has(text)) {
        warned.add(text);
        console.warn(text);
      }
      this.dispatchEvent(
        new CustomEvent('posenc-invalid', { detail: { name, message: problem }, bubbles: true, composed: true }),
      );
    } else {
      this.#problems.delete(name);
    }
    const problems = this.problems;
    this.#message.hidden = problems.length === 0;
    this.#message.replaceChildren(
      ...(problems.length
        ? [
            h(
              'ul',
              {},
              problems.map((text) => h('li', {}, text)),
            ),
          ]
        : []),
    );
  }

  /** Redraws (in steps for a progressive element); posenc-change follows the finished picture. */
  *#redrawSteps() {
    if (!this.#posenc || !this.#figure || !this.isConnected) return;
    const values = Object.fromEntries(
      Object.keys(this.constructor.settings).map((name) => [name, this.getSetting(name)]),
    );
    try {
      const steps = this.draw(this.#posenc, values);
      if (this.constructor.progressive) yield* steps;
      this.#report('draw', null);
    } catch (error) {
      this.#report('draw', `could not draw: ${error.message}`);
      return;
    }
    const settings = JSON.stringify(values);
    if (settings !== this.#lastSettings) {
      this.#lastSettings = settings;
      this.dispatchEvent(
        new CustomEvent('posenc-change', { detail: { settings: this.settings }, bubbles: true, composed: true }),
      );
    }
  }
}
