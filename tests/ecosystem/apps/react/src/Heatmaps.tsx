import { useEffect, useRef } from 'react';
import 'posenc/widgets';
import type { PeHeatmap } from 'posenc/widgets';

export function Heatmaps() {
  const heatmap = useRef<PeHeatmap>(null);
  useEffect(() => {
    // A property, through a ref: the number itself, no attribute text.
    if (heatmap.current) heatmap.current.base = 500;
  }, []);
  return (
    <>
      <posenc-pe-heatmap base="100" seq-len="3" d-model="8" />
      <posenc-pe-heatmap ref={heatmap} seq-len="3" d-model="8" />
    </>
  );
}
