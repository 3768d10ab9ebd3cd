// Redraw coalescing: however many input events arrive between two animation frames (a slider being
// dragged fires dozens), the work runs once, in the next animation frame.
// <html data-pending-redraws> counts the scheduled but not yet run redraws, so tests can wait
// for the page to settle.

let pending = 0;

function setPending(delta) {
  pending += delta;
  document.documentElement.dataset.pendingRedraws = String(pending);
}

// Every redraw runs from one queue, in request order, as many per animation frame as fit in
// FRAME_BUDGET_MS (the first always runs; the rest wait for the next frame). All of a frame's
// callbacks run in one task, so without a shared budget a page that asks for many pictures at
// once (a section's six panels, or the sections near a link's target) blocks input for the sum.
const FRAME_BUDGET_MS = 40;
let queue = [];
let frameRequested = false;
const settledWaiters = [];

function requestFrame() {
  if (frameRequested) return;
  frameRequested = true;
  requestAnimationFrame(runFrame);
}

/** An error in one redraw is reported (as an uncaught error would be) without stopping the others. */
function report(error) {
  if (typeof reportError === 'function') reportError(error);
  else
    setTimeout(() => {
      throw error;
    });
}

function runFrame() {
  frameRequested = false;
  const started = performance.now();
  const jobs = queue;
  queue = []; // what this frame's jobs request runs in a later frame
  let next = 0;
  while (next < jobs.length) {
    try {
      jobs[next++]();
    } catch (error) {
      report(error);
    }
    if (performance.now() - started >= FRAME_BUDGET_MS) break;
  }
  if (next < jobs.length) queue = [...jobs.slice(next), ...queue];
  if (queue.length) requestFrame();
  else if (pending === 0) for (const resolve of settledWaiters.splice(0)) resolve();
}

/** Runs `job` in an animation frame, after the jobs requested before it. */
function inAnimationFrame(job) {
  queue.push(job);
  requestFrame();
}

/** Resolves once no redraw is pending (at once if none is). */
export function redrawsSettled() {
  if (pending === 0 && queue.length === 0) return Promise.resolve();
  return new Promise((resolve) => settledWaiters.push(resolve));
}

/** Wraps `draw` so that calling the result any number of times runs `draw` once per animation frame. */
export function coalesceToAnimationFrame(draw) {
  let scheduled = false;
  return function request() {
    if (scheduled) return;
    scheduled = true;
    setPending(+1);
    inAnimationFrame(() => {
      scheduled = false;
      try {
        draw();
      } finally {
        setPending(-1);
      }
    });
  };
}

// An animation frame's share for the later steps of a progressive redraw: input events and
// painting still get their turn every animation frame (about 40 per second while a picture
// refines), and the full picture comes sooner than with a 60 Hz animation frame's 10 ms (§7 at
// its heaviest: 164 ms instead of 210).
const STEP_BUDGET_MS = 24;

/**
 * coalesceToAnimationFrame for a redraw in steps: `draw` is a generator function whose first
 * step (up to its first `yield`: a coarse picture) runs in the next animation frame, and whose
 * later steps run in the animation frames after, as many per animation frame as fit in
 * STEP_BUDGET_MS. A new request drops the steps left
 * of the redraw under way (its picture is never finished over the newer one) and starts again.
 * The redraw counts on data-pending-redraws until its last step ran.
 */
export function progressiveToAnimationFrame(draw) {
  let steps = null; // the redraw under way
  let restart = false; // a request came after it started
  let scheduled = false;
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setPending(+1);
    inAnimationFrame(runAnimationFrame);
  }
  function runAnimationFrame() {
    scheduled = false;
    try {
      if (restart || !steps) {
        restart = false;
        steps?.return();
        steps = draw();
        // The first step alone in its animation frame: the coarse picture is painted at once.
        if (steps.next().done) steps = null;
      } else {
        const started = performance.now();
        while (!steps.next().done) {
          if (performance.now() - started >= STEP_BUDGET_MS) return schedule();
        }
        steps = null;
      }
      if (steps) schedule();
    } catch (error) {
      steps = null;
      throw error;
    } finally {
      setPending(-1);
    }
  }
  return function request() {
    restart = true;
    schedule();
  };
}
