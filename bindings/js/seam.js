// The WASM module as the JS layer sees it. At load time the module describes itself (status
// codes and the parameter each names, every operation's operand slots, the enums' names, the
// scaling types that go by a call's length, the defaults the core's specs share: see
// bindings/wasm/describe.h); after that, a call is: write its operands in WASM memory, call the
// operation with its address, get a status code back.
import { statusError } from './errors.js';

/** What the module says about itself, as lookup tables. */
export function readDescription(mod) {
  const statuses = [];
  const operands = Object.create(null);
  const enums = Object.create(null);
  const defaults = Object.create(null);
  let lengthDependent = [];
  for (const line of mod.describe().split('\n')) {
    const [kind, name, ...words] = line.split(' ');
    if (kind === 'status') statuses.push(Object.freeze({ name, parameter: words[0] ?? '' }));
    else if (kind === 'operands') operands[name] = Object.freeze(words);
    else if (kind === 'enum') enums[name] = Object.freeze(words);
    else if (kind === 'default') defaults[name] = Number(words[0]);
    else if (kind === 'lengthDependent') lengthDependent = words; // scaling type names
  }
  const limits = Object.freeze({
    maxSeqLen: mod.maxSeqLen,
    maxDim: mod.maxDim,
    maxElements: mod.maxElements,
    maxPosition: mod.maxPosition,
  });
  return Object.freeze({
    statuses: Object.freeze(statuses),
    operands: Object.freeze(operands),
    enums: Object.freeze(enums),
    defaults: Object.freeze(defaults),
    lengthDependent: Object.freeze(lengthDependent),
    limits,
  });
}

/** The error for a non-ok status: the parameter the module names, worded by errors.js. */
export function errorForStatus(description, code, context) {
  const status = description.statuses[code] ?? { name: `unknown status ${code}`, parameter: '' };
  return statusError(status, { ...context, limits: description.limits });
}
