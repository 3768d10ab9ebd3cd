// Redraw coalescing: however many input events arrive between two frames (a slider being
// dragged fires dozens), the work runs once, in the next animation frame.
// <html data-pending-frames> counts the scheduled but not yet run redraws, so tests can wait
// for the page to settle.

let pending = 0;

function setPending(delta) {
  pending += delta;
  document.documentElement.dataset.pendingFrames = String(pending);
}

/** Wraps `draw` so that calling the result any number of times runs `draw` once per frame. */
export function coalesceToFrame(draw) {
  let scheduled = false;
  return function request() {
    if (scheduled) return;
    scheduled = true;
    setPending(+1);
    requestAnimationFrame(() => {
      scheduled = false;
      try {
        draw();
      } finally {
        setPending(-1);
      }
    });
  };
}
