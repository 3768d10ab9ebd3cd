// The consumer of the worker apps (tests/ecosystem/workers.test.js): runs rope-jobs.js, from
// docs/workers-and-offline.md, and publishes what the workers sent back on window.__posenc.
import { rotated } from './rope-jobs.js';

rotated.then(
  (arrays) => {
    window.__posenc = { values: arrays.map((x) => Array.from(x)) };
  },
  (error) => {
    window.__posenc = { error: String(error?.message ?? error) };
  },
);
