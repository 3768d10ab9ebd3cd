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

/**
 * Numbers in running text (captions, notes, read-outs, text alternatives) with the minus sign (−)
 * the page's prose and axes use, not the hyphen-minus of JavaScript's number formatting (CSV and
 * code keep "-"): "from -0.425 to 8.3" -> "from −0.425 to 8.3", "2e-7" -> "2e−7".
 */
export function withMinus(text) {
  return text.replace(/(^|[^\w])-(?=\.?\d)|(?<=\de)-(?=\d)/g, (match) => match.replace('-', '−'));
}

/** formatSig for running text: the same digits, with the minus sign (−). */
export function formatSigText(value, digits = 7) {
  return withMinus(formatSig(value, digits));
}

/** A count with its unit in running text, singular for ±1 and with the minus sign: "−1 row", "0 columns", "2 tokens". */
export function quantity(n, unit) {
  return `${withMinus(String(n))} ${unit}${Math.abs(n) === 1 ? '' : 's'}`;
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

/**
 * The labels of one axis (or colour bar), in one style for all of them: plain integers below a
 * million, else exponents (1e4, 1.5e4) when a value is 1e5 or more or below 1e-3, else decimals.
 * The fewest digits that show every value to four significant digits (a nice tick exactly).
 * Negative numbers take the minus sign (−), as the text does.
 */
export function formatTicks(values) {
  const finite = values.filter(Number.isFinite);
  const largest = Math.max(0, ...finite.map(Math.abs));
  const smallest = Math.min(Infinity, ...finite.filter((v) => v !== 0).map(Math.abs));
  const close = (labels) =>
    labels.every((label, i) => Math.abs(Number(label) - values[i]) <= 1e-4 * Math.abs(values[i]));
  const fewest = (format) => {
    let labels = [];
    for (let digits = 0; digits <= 7; digits++) {
      labels = values.map((v) => format(v, digits));
      if (close(labels)) break;
    }
    return labels;
  };
  let labels;
  if (finite.every(Number.isInteger) && largest < 1e6) labels = values.map(String);
  else if (largest >= 1e5 || smallest < 1e-3) labels = fewest((v, d) => (v === 0 ? '0' : formatExponent(v, d + 1)));
  else labels = fewest((v, d) => trimZeros(formatFixed(v, d)));
  return labels.map(withMinus);
}

/** A number as Python source would show it (code snippets, formulas): 10000 rather than 1e4. */
export function formatPython(value) {
  return Number.isInteger(value) ? String(value) : formatSig(value, 8);
}

/** A number for a CSV cell: shortest text that reads back as the same float32. */
export function formatCsv(value) {
  return Number.isFinite(value) ? String(Number(value.toPrecision(9))) : String(value);
}
