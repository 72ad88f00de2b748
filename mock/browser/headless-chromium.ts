/**
 * Debian's Chromium as the browser tests start it: where it is, and the flags this machine needs
 * (no sandbox as root, no GPU, and no background networking, whose connections the closed
 * network refuses by the dozen).
 */
import { existsSync } from 'node:fs';

/** Where Chromium is: `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The command-line flags of every headless Chromium the tests start; `extra` adds some. */
export function chromiumArgs(extra: readonly string[] = []): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    ...extra,
  ];
}

/** Throws, naming the test and how to install Chromium, when there is none. */
export function requireChromium(test: string): void {
  if (!existsSync(chromiumPath))
    throw new Error(
      `${test}: no Chromium at ${chromiumPath}; run \`apt-get install -y chromium\` or set CHROMIUM_PATH`,
    );
}
