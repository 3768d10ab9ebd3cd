'use client';

import 'posenc/widgets';

export function Heatmap() {
  return <posenc-pe-heatmap base="100" seq-len="3" d-model="8" />;
}
