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

/** Launches Chromium with the project's flags, plus `extraFlags`. */
export function launchChromium(extraFlags = []) {
  return chromium.launch({ executablePath: CHROMIUM, args: [...FLAGS, ...extraFlags] });
}
