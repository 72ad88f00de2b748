/**
 * The live QA page's two files as control-surface answers. They hold no data (the page reads
 * everything through the control surface, with the token when one is set), and their headers
 * forbid framing (no clickjacking of the buttons), inline or foreign script, and caching.
 */
import type { Answer } from '../../../base/messages/answer.ts';
import { pageHtml } from './page-html.ts';
import { pageScript } from './page-script.ts';

const security = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/** The page's answer for a path under the control prefix (`/` or `/page.js`), or `undefined`. */
export function controlPageAnswer(path: string): Answer | undefined {
  if (path === '/')
    return {
      status: 200,
      headers: { ...security, 'Content-Type': 'text/html; charset=utf-8' },
      body: pageHtml,
    };
  if (path === '/page.js')
    return {
      status: 200,
      headers: { ...security, 'Content-Type': 'text/javascript; charset=utf-8' },
      body: pageScript,
    };
  return undefined;
}
