// Debian's Chromium, headless, driven by playwright-core: the one place its executable and flags
// are written (the page tests and the benchmarks launch it through here). The networking flags
// matter: without them Chromium floods the closed network with background connections.
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches Chromium with the project's flags, plus `extraFlags`. `gpu: true` leaves out
 * --disable-gpu, so WebGPU may get a hardware adapter where the machine has one (the GPU
 * benchmark rows).
 */
export function launchChromium(extraFlags = [], { gpu = false } = {}) {
  const flags = gpu ? FLAGS.filter((flag) => flag !== '--disable-gpu') : FLAGS;
  return chromium.launch({ executablePath: CHROMIUM, args: [...flags, ...extraFlags] });
}
