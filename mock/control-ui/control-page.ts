/**
 * The live QA page's two files as control-surface answers: a page with its styles, and the script
 * (qa-page.ts, bundled) that draws the rest. They hold no data, and their headers forbid framing
 * (no clickjacking of the buttons), inline or foreign script, and caching.
 */
import type { Answer } from '../base/messages/answer.ts';
import { pageStyles } from './control-styles.ts';
import { rowsPlace } from './control-view.ts';
import { qaPageScript } from './qa-page-script.generated.ts';

const security = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/** A button of the recipe, which the script runs by its id. */
const step = (id: string, text: string) => `<button id="${id}" type="button">${text}</button>`;

/** A field of the journal's filter: a select (`any <what>` first) or a text input. */
const field = (name: string, any: string, options?: readonly string[]) =>
  options === undefined
    ? `<input name="${name}" placeholder="${any}" size="9">`
    : `<select name="${name}"><option value="">${any}</option>${options.map((option) => `<option>${option}</option>`).join('')}</select>`;

/** The page at `GET <prefix>/`: its script comes from `<prefix>/page.js` (no inline script). */
const pageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Pet Store fake: QA</title>
<style>${pageStyles}</style>
</head>
<body>
<h1>Pet Store fake: QA</h1>
<p>Fake clock: <strong id="clock">...</strong> <span id="status">Loading...</span></p>
<form id="token-form" hidden>
  <label>Control token <input id="token" type="password" autocomplete="off"></label>
  <button type="submit">Use</button>
</form>
<div class="actions">${step('freeze', 'Freeze clock')}${step('advance-60', 'Advance 60 s')}${step('advance-300', 'Advance 300 s')}${step('real', 'Real time')}${step('reset', 'Reset')}${step('clear-chaos', 'Chaos off')}</div>
<h2>Keys</h2>${rowsPlace('keys', 'Key,Plan,This minute,Today,Ban', 'No keys.')}
<h2>Chaos and forced answers</h2><pre id="chaos">...</pre>
<h2>Client verdicts (Limits, rule 2)</h2><p id="judged-on">...</p>
${rowsPlace('clients', 'Key,Client,Verdict,Retry-After,Backoff,Ban,Resent creates,Copies,Why', 'No client has sent a request with a key yet.')}
<h2>Interface coverage</h2><p id="coverage" class="empty">...</p>
<h2>Last requests</h2>${rowsPlace('recent', 'Time,Key,Client,Connection,Request,Status,Code,,Latency', 'No requests yet.')}
<h2>Request journal</h2>
<form id="journal-filter">${field('method', 'any method', ['GET', 'POST', 'OPTIONS'])}${field('operationId', 'any operation', ['listPets', 'createPet', 'getPet', 'none'])}${field('path', 'path prefix')}${field('status', 'status or 4xx')}${field('keyId', 'key id')}${field('clientId', 'client id')}${step('clear-journal', 'Clear journal')}</form>
<p id="journal-total"></p>
${rowsPlace('journal', '#,Time,Key,Client,Request,Status,Code,Marks,Remaining,Retry-After,Took', 'No request matches.')}
<script src="page.js"></script>
</body>
</html>
`;

/** The page's two files, by their path under the control prefix: the body and its media type. */
const files = new Map<string, readonly [body: string, type: string]>([
  ['/', [pageHtml, 'text/html']],
  ['/page.js', [qaPageScript, 'text/javascript']],
]);

/** The page's answer for a path under the control prefix (`/` or `/page.js`), or `undefined`. */
export function controlPageAnswer(path: string): Answer | undefined {
  const file = files.get(path);
  if (file === undefined) return undefined;
  const [body, type] = file;
  return { status: 200, headers: { ...security, 'Content-Type': `${type}; charset=utf-8` }, body };
}
