// The cosine integral in the form that stays finite at 0, Cin(x) = ∫₀ˣ (1 − cos t)/t dt
// (Abramowitz & Stegun 5.2.2; Ci(x) = γ + ln x − Cin(x)), to float64 precision for x ≥ 0.
// The RoPE-base section needs it: the mean of cos(Δ·ω) over frequencies ω spread evenly in
// log-frequency between 1/base and 1 is 1 − (Cin(Δ) − Cin(Δ/base)) / ln(base).

const EULER_GAMMA = 0.5772156649015329;
const SERIES_BELOW = 4; // the power series loses no digit to cancellation up to here

/** Cin(x) by its power series Σ (−1)^(k+1) x^(2k) / (2k · (2k)!). */
function cinSeries(x) {
  const x2 = x * x;
  let term = 1; // x^(2k) / (2k)!
  let sum = 0;
  for (let k = 1; k < 60; k++) {
    term *= x2 / ((2 * k - 1) * (2 * k));
    const add = term / (2 * k);
    sum += k % 2 === 1 ? add : -add;
    if (add <= Math.abs(sum) * 1e-17) break;
  }
  return sum;
}

/** Ci(x) for x > 2: E₁(ix) = −Ci(x) + i(Si(x) − π/2) by its continued fraction (modified Lentz). */
function ciContinuedFraction(x) {
  const tiny = 1e-300;
  let [bRe, bIm] = [1, x];
  let [cRe, cIm] = [1 / tiny, 0];
  // d = h = 1 / b
  const inverse = (re, im) => {
    const n = re * re + im * im;
    return [re / n, -im / n];
  };
  let [dRe, dIm] = inverse(bRe, bIm);
  let [hRe, hIm] = [dRe, dIm];
  for (let i = 1; i < 200; i++) {
    const a = -i * i;
    bRe += 2;
    [dRe, dIm] = inverse(a * dRe + bRe, a * dIm + bIm);
    const [qRe, qIm] = inverse(cRe, cIm);
    [cRe, cIm] = [bRe + a * qRe, bIm + a * qIm];
    const [delRe, delIm] = [cRe * dRe - cIm * dIm, cRe * dIm + cIm * dRe];
    [hRe, hIm] = [hRe * delRe - hIm * delIm, hRe * delIm + hIm * delRe];
    if (Math.abs(delRe - 1) + Math.abs(delIm) < 1e-16) break;
  }
  // h · (cos x − i sin x); Ci(x) is minus its real part.
  return -(hRe * Math.cos(x) + hIm * Math.sin(x));
}

/** Cin(x) = ∫₀ˣ (1 − cos t)/t dt, for x ≥ 0 (even in x: Cin(−x) = Cin(x)). */
export function cin(x) {
  const a = Math.abs(x);
  if (a <= SERIES_BELOW) return cinSeries(a);
  return EULER_GAMMA + Math.log(a) - ciContinuedFraction(a);
}
