// The GPU methods take the CPU's options and are checked by the CPU's own rules: posenc's
// method runs on the plain copy of the options, and what it throws is the same error named
// after the GPU method (`posenc.webgpu.rope: headDim …`), with the same class and parameter.
import { rangeError, typeError } from '../js/errors.js';

/** `run()`'s result; an error of posenc's is re-made under `fn`'s name. */
export function checkedByCpu(fn, run) {
  try {
    return run();
  } catch (error) {
    throw renamed(error, fn);
  }
}

function renamed(error, fn) {
  const parameter = error?.parameter;
  const from = error?.function;
  if (typeof parameter !== 'string' || typeof from !== 'string') return error;
  const prefix = `posenc.${from}: ${parameter} `;
  if (!error.message.startsWith(prefix)) return error;
  const rule = error.message.slice(prefix.length);
  if (error instanceof RangeError) return rangeError(fn, parameter, rule);
  if (error instanceof TypeError) return typeError(fn, parameter, rule, { cause: error.cause });
  return error;
}
