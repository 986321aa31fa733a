import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's Chromium (apt-get install chromium; .ci/run installs it when missing). Playwright's
 * own browser downloads do not work here, so playwright-core drives the system browser.
 */
export const CHROMIUM = process.env.CLOUDG_CHROMIUM ?? '/usr/bin/chromium';

export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

export function launchChromium(): Promise<Browser> {
  // --no-sandbox: CI and this machine run as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
}
