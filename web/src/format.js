// Number formatting for read-outs, tables and axis ticks.

/** `digits` significant digits with trailing zeros removed: 0.9999499917 -> "0.99995" (digits 7). */
export function formatSig(value, digits = 7) {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  if (Math.abs(value) < 1e-4) return formatExponent(value, digits);
  const text = value.toPrecision(digits);
  if (text.includes('e')) {
    const [mantissa, exponent] = text.split('e');
    return `${trimZeros(mantissa)}e${exponent.replace('+', '')}`;
  }
  return trimZeros(text);
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 61st, 112th. */
export function ordinal(n) {
  const tens = Math.abs(n) % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[tens % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** 2.09e-7 style: mantissa with `digits` significant digits, trailing zeros removed. */
function formatExponent(value, digits) {
  const [mantissa, exponent] = value.toExponential(Math.max(0, digits - 1)).split('e');
  return `${trimZeros(mantissa)}e${exponent.replace('+', '')}`;
}

function trimZeros(text) {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** Fixed decimals, with "-0.0000" shown as "0.0000". */
export function formatFixed(value, decimals) {
  const text = value.toFixed(decimals);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

/** Short labels for ticks and legends: 0.25, 1200, 1e6, 2.5e-4. */
export function formatTick(value) {
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e5 || magnitude < 1e-3) return formatExponent(value, 3);
  return formatSig(value, 4);
}

/** A number as Python source would show it (code snippets, formulas): 10000 rather than 1e4. */
export function formatPython(value) {
  return Number.isInteger(value) ? String(value) : formatSig(value, 8);
}

/** A number for a CSV cell: shortest text that reads back as the same float32. */
export function formatCsv(value) {
  return Number.isFinite(value) ? String(Number(value.toPrecision(9))) : String(value);
}
