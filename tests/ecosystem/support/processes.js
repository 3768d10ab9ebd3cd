// The processes the ecosystem suite starts (bundlers' builds and dev servers): each in its own
// process group, so stopping one also stops what it forked (esbuild's service, Parcel's workers);
// every group still running when the test process exits, or is interrupted, is killed.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

const running = new Set();
const killAll = () => {
  for (const child of running) killGroup(child, 'SIGKILL');
};
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    killAll();
    process.kill(process.pid, signal);
  });
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch (error) {
    if (error.code !== 'ESRCH') throw error;
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago (for tools that want a port number). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `command args` in `cwd` as the leader of a new process group. Returns the child, a
 * promise of its exit, the tail of what it printed, and stop(), which ends the whole group
 * (SIGTERM, then SIGKILL after a grace period).
 */
export function start(command, args, cwd, env = {}) {
  const child = spawn(command, args.map(String), {
    cwd,
    detached: true,
    stdio: 'pipe', // stdin stays open: esbuild --serve stops when its stdin closes
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
  });
  let output = '';
  const append = (chunk) => {
    output = (output + chunk).slice(-6000);
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  running.add(child);
  const exited = new Promise((resolve) => {
    child.once('error', (error) => {
      append(String(error));
      resolve({ code: null, signal: null });
    });
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  const stop = async () => {
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
    killGroup(child, 'SIGKILL'); // whatever the leader left behind in its group
    running.delete(child);
  };
  return { child, exited, output: () => output, stop };
}

/** Runs a command to its end (a build); throws with its output when it fails or takes too long. */
export async function runToEnd(command, args, cwd, { timeout = 120_000, env } = {}) {
  const started = performance.now();
  const job = start(command, args, cwd, env);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    job.stop();
  }, timeout);
  const { code, signal } = await job.exited;
  clearTimeout(timer);
  await job.stop();
  if (code !== 0) {
    const why = timedOut ? `timed out after ${timeout / 1000} s` : `exited with ${code ?? signal}`;
    throw new Error(`${[command, ...args].join(' ')} ${why}:\n${job.output()}`);
  }
  return { output: job.output(), seconds: (performance.now() - started) / 1000 };
}

/**
 * Waits until `url` answers 2xx; fails early, with the server's output, if the server exits or
 * answers 5xx (esbuild's server answers 503 while its build fails).
 */
export async function waitForHttp(url, server, timeout = 60_000) {
  const deadline = performance.now() + timeout;
  let exitedWith;
  server.exited.then((result) => {
    exitedWith = result;
  });
  let last = 'no answer';
  while (performance.now() < deadline) {
    if (exitedWith) throw new Error(`the server exited (${exitedWith.code ?? exitedWith.signal}):\n${server.output()}`);
    let response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      await response.arrayBuffer();
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    if (response?.ok) return;
    if (response?.status >= 500) throw new Error(`${url} answered ${response.status}:\n${server.output()}`);
    if (response) last = `HTTP ${response.status}`;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer 2xx within ${timeout / 1000} s (last: ${last}):\n${server.output()}`);
}
