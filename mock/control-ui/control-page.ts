/**
 * The live QA page's two files as control-surface answers: a page that holds only its styles,
 * and the script (qa-page.ts, bundled) that draws the rest. They hold no data (the page reads
 * everything through the control surface, with the token when one is set), and their headers
 * forbid framing (no clickjacking of the buttons), inline or foreign script, and caching.
 */
import type { Answer } from '../base/messages/answer.ts';
import { pageStyles } from './control-styles.ts';
import { qaPageScript } from './qa-page-script.generated.ts';

const security = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/** The page at `GET <prefix>/`: its script comes from `<prefix>/page.js` (no inline script). */
const pageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Pet Store fake: QA</title>
<style>${pageStyles}</style>
</head>
<body>
<script src="page.js"></script>
</body>
</html>
`;

/** The page's answer for a path under the control prefix (`/` or `/page.js`), or `undefined`. */
export function controlPageAnswer(path: string): Answer | undefined {
  const [body, type] =
    path === '/'
      ? [pageHtml, 'text/html']
      : path === '/page.js'
        ? [qaPageScript, 'text/javascript']
        : [];
  if (body === undefined) return undefined;
  return {
    status: 200,
    headers: { ...security, 'Content-Type': `${type}; charset=utf-8` },
    body,
  };
}
