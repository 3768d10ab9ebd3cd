// The one posenc instance a page's elements share, made on the first element's request (not on
// import). Either the page hands over an instance it loaded (providePosenc: the tutorial) or an
// entry registers a loader (setPosencLoader: posenc/widgets). Elements may be defined, and ask,
// before either happens (a bundler orders shared chunks as it likes), so a request waits for one.

let loader = null;
let requested = false;
let started = false;
let settle;
const shared = new Promise((resolve) => {
  settle = resolve;
});

function start(posenc) {
  started = true;
  settle(posenc);
}

/** Registers how to load posenc when no instance is provided. */
export function setPosencLoader(load) {
  loader = load;
  if (requested && !started) start(loader());
}

/** Makes `posenc` (an API object or a Promise of one) the page's shared instance. */
export function providePosenc(posenc) {
  if (!started) start(posenc);
}

/** The shared instance (a Promise), loaded on the first request when a loader is registered. */
export function sharedPosenc() {
  requested = true;
  if (!started && loader) start(loader());
  return shared;
}
