// Order statistics of timing samples. Medians and the p10/p90 band, never means: a shared
// machine adds long one-sided outliers.
export function percentile(sorted, fraction) {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * fraction;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    medianMs: percentile(sorted, 0.5),
    p10Ms: percentile(sorted, 0.1),
    p90Ms: percentile(sorted, 0.9),
    samples: sorted.length,
  };
}

/**
 * Least-squares line y = intercept + slope * x through points [[x, y], ...]; null with fewer
 * than two distinct x.
 */
export function fitLine(points) {
  if (points.length < 2) return null;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  let sxx = 0;
  let sxy = 0;
  for (const [x, y] of points) {
    sxx += (x - meanX) ** 2;
    sxy += (x - meanX) * (y - meanY);
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  return { intercept: meanY - slope * meanX, slope };
}
