// Form controls bound to URL settings. All are native inputs (keyboard-usable, labelled);
// each has a stable id `ctl-<setting key with dots as dashes>` (the slider of a number
// setting adds `-range`). A second control for the same setting elsewhere on the page passes
// `instance`, which is appended to its id (and radio group name); both stay in sync.
import { h } from './dom.js';
import { formatSig, withMinus } from './format.js';
import { clampSetting, cutText, textCutMessage } from './state.js';

export function controlId(key, instance) {
  return `ctl-${key.replaceAll('.', '-')}${instance ? `-${instance}` : ''}`;
}

/**
 * A slider plus an exact number box for an 'int' or 'number' setting (its upper limit can depend
 * on other settings: spec.maxFrom). A number typed outside the rules is replaced by the nearest
 * allowed one, and a note beside the box says so.
 * options: label, scale ('linear' | 'log' | 'log1p', see SLIDER_SCALES).
 */
export function numberControl(state, key, { label, scale = 'linear', hint, instance } = {}) {
  const spec = state.spec(key);
  const id = controlId(key, instance);
  const log = scale !== 'linear';
  const { to: toSlider, from: fromSlider } = SLIDER_SCALES[scale];
  const currentMax = () => state.max(key);
  const step = spec.type === 'int' ? (spec.even ? 2 : 1) : 'any';

  const range = h('input', {
    type: 'range',
    id: `${id}-range`,
    min: toSlider(spec.min),
    max: toSlider(currentMax()),
    step: log ? 0.01 : step,
    'aria-label': `${label} slider`,
  });
  const box = h('input', {
    type: 'number',
    id,
    min: spec.min,
    max: currentMax(),
    step,
    inputMode: spec.type === 'int' ? 'numeric' : 'decimal',
  });
  const note = controlNote(id);
  const sync = () => {
    const value = state.get(key);
    range.max = toSlider(currentMax());
    box.max = currentMax();
    range.value = toSlider(value);
    range.setAttribute('aria-valuetext', String(value));
    if (Number(box.value) !== value || box.value === '') box.value = String(value);
    box.removeAttribute('aria-invalid');
  };
  range.addEventListener('input', () => {
    note.textContent = '';
    const current = state.get(key);
    let next = fromSlider(Number(range.value));
    // A step of a log slider near 0 can round back to the same whole number: move by one instead,
    // so the arrow keys always change the value.
    if (next === current && Number(range.value) !== toSlider(current))
      next = current + Math.sign(Number(range.value) - toSlider(current));
    state.set(key, next);
  });
  box.addEventListener('change', () => {
    const value = Number(box.value);
    if (box.value.trim() === '' || !Number.isFinite(value)) {
      box.setAttribute('aria-invalid', 'true');
      note.textContent = `${JSON.stringify(box.value)} is not a number.`;
      return;
    }
    const used = clampSetting(spec, value, currentMax());
    note.textContent = used === value ? '' : `${value} ${clampReason(spec, value, currentMax())}: using ${used}.`;
    state.set(key, used);
    sync(); // show the value in use
  });
  state.subscribe(sync);
  sync();
  return h(
    'div',
    { class: 'control control-number' },
    h('label', { htmlFor: id }, label),
    range,
    box,
    note,
    hint ? h('span', { class: 'control-hint' }, hint) : null,
  );
}

// How a slider's position maps to a value. 'log1p' is a log scale that reaches 0: a range from 0
// to a million where 0, 7 and 500 all sit apart on the slider.
const SLIDER_SCALES = {
  linear: { to: (v) => v, from: (p) => p },
  log: { to: Math.log10, from: (p) => Number(formatSig(10 ** p, 3)) },
  log1p: { to: (v) => Math.log10(1 + v), from: (p) => Math.round(Number(formatSig(10 ** p, 3)) - 1) },
};

/** The note beside a control that says what happened to its input (a value replaced, text cut). */
function controlNote(id) {
  return h('span', { class: 'control-note', id: `${id}-note`, role: 'status' });
}

/** A one-line text box and its note. */
function textBox(id, size, attributes = {}) {
  const note = controlNote(id);
  const input = h('input', {
    type: 'text',
    id,
    size,
    spellcheck: false,
    autocomplete: 'off',
    'aria-describedby': note.id,
    ...attributes,
  });
  return { input, note };
}

/** Why a typed number is not used as it is (clampSetting says what is used instead). */
function clampReason(spec, value, max) {
  if (value < spec.min) return `is below the smallest allowed, ${spec.min}`;
  if (value > max)
    return `is above the largest allowed${max < spec.max && spec.maxNote ? ` here (${spec.maxNote})` : ''}, ${max}`;
  if (spec.type === 'int' && !Number.isInteger(value)) return 'is not a whole number';
  return 'is odd (this setting is even)';
}

/** A group of radio buttons for an 'enum' setting. */
export function choiceControl(state, key, { label, options, instance }) {
  const id = controlId(key, instance);
  const inputs = options.map(({ value, label: text }) => {
    const input = h('input', { type: 'radio', name: id, id: `${id}-${value}`, value });
    input.addEventListener('change', () => {
      if (input.checked) state.set(key, value);
    });
    return h('label', { class: 'choice' }, input, ` ${text}`);
  });
  const sync = () => {
    for (const wrapper of inputs) {
      const input = wrapper.querySelector('input');
      input.checked = input.value === state.get(key);
    }
  };
  state.subscribe(sync);
  sync();
  return h('fieldset', { class: 'control control-choice', id }, h('legend', {}, label), inputs);
}

/** A drop-down list for an 'enum' setting with more (or longer) options than radio buttons suit. */
export function selectControl(state, key, { label, options, instance }) {
  const id = controlId(key, instance);
  const select = h(
    'select',
    { id },
    options.map(({ value, label: text }) => h('option', { value }, text)),
  );
  select.addEventListener('change', () => state.set(key, select.value));
  const sync = () => {
    if (select.value !== state.get(key)) select.value = state.get(key);
  };
  state.subscribe(sync);
  sync();
  return h('div', { class: 'control control-select' }, h('label', { htmlFor: id }, label), select);
}

/**
 * A one-line text box for a 'text' setting (applied as you type). Text longer than the spec's
 * maxLength (typed, pasted or set by a script) is cut by the state, never inside a character,
 * and a note beside the box says so. (No maxlength attribute: the browser would cut a paste
 * without a word.)
 */
export function textControl(state, key, { label, size = 40, instance }) {
  const spec = state.spec(key);
  const id = controlId(key, instance);
  const { input, note } = textBox(id, size);
  input.addEventListener('input', () => {
    const cut = cutText(input.value, spec.maxLength) !== input.value;
    note.textContent = cut ? textCutMessage(key, spec) : '';
    state.set(key, input.value);
    if (cut) sync(); // the box shows the text in use
  });
  const sync = () => {
    if (input.value === state.get(key)) return;
    const caret = input.selectionStart;
    input.value = state.get(key);
    if (document.activeElement === input) input.setSelectionRange(caret, caret);
  };
  state.subscribe(sync);
  sync();
  return h('div', { class: 'control control-text' }, h('label', { htmlFor: id }, label), input, note);
}

/**
 * A text box of comma-separated numbers for a 'numbers' setting, applied when valid. A note beside
 * it says when the list cannot be used (the figure keeps the last valid one) or when numbers were
 * held to the setting's range.
 */
export function numbersControl(state, key, { label, size = 24, instance }) {
  const spec = state.spec(key);
  const id = controlId(key, instance);
  const { input, note } = textBox(id, size, { inputMode: 'decimal' });
  const apply = () => {
    const parts = input.value.split(',');
    const values = parts.map((part) => Number(part.trim()));
    const valid =
      parts.length >= spec.minLength &&
      parts.length <= spec.maxLength &&
      parts.every((part) => part.trim() !== '') &&
      values.every(Number.isFinite);
    if (!valid) {
      input.setAttribute('aria-invalid', 'true');
      note.textContent = `${key} needs ${spec.minLength}…${spec.maxLength} comma-separated numbers; the figure keeps the last list that had them.`;
      return;
    }
    input.removeAttribute('aria-invalid');
    const held = values.map((v) => Math.min(spec.max, Math.max(spec.min, v)));
    const changed = values.filter((v, i) => v !== held[i]);
    note.textContent = changed.length
      ? withMinus(
          `${key} holds numbers from ${spec.min} to ${spec.max}: ${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ' and more' : ''} ${changed.length === 1 ? 'was' : 'were'} held to that range.`,
        )
      : '';
    state.set(key, held);
  };
  input.addEventListener('input', apply);
  const sync = () => {
    const current = input.value.split(',').map((part) => Number(part.trim()));
    const value = state.get(key);
    if (current.length !== value.length || current.some((v, i) => v !== value[i])) input.value = value.join(', ');
  };
  state.subscribe(sync);
  sync();
  return h('div', { class: 'control control-text' }, h('label', { htmlFor: id }, label), input, note);
}

/** A row of controls. */
/**
 * A button that re-rolls the seed setting `key` (1, 2, …, 999998, then 1 again: in range for
 * every seed spec); `afterwards(state)` runs next (a section that also switches its contents).
 */
export function rerollButton(state, key, { id, label, ariaLabel, afterwards }) {
  const button = h('button', { type: 'button', id, ...(ariaLabel ? { 'aria-label': ariaLabel } : {}) }, label);
  button.addEventListener('click', () => {
    state.set(key, (state.get(key) % 999998) + 1);
    afterwards?.(state);
  });
  return button;
}

export function controlRow(...controls) {
  return h('div', { class: 'controls' }, controls);
}
