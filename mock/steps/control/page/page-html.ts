/**
 * The live QA page served at `GET <prefix>/`: markup and styles only; its script comes from
 * `<prefix>/page.js` (the Content-Security-Policy allows no inline script).
 */
export const pageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Pet Store fake: QA</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1d2330; }
  h1 { font-size: 1.3rem; margin: 0 0 .3rem; }
  h2 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #dde1e8; vertical-align: top; }
  th { background: #f3f5f9; font-weight: 600; }
  button { margin: .2rem .3rem .2rem 0; padding: .3rem .7rem; }
  pre { background: #f3f5f9; padding: .5rem; margin: 0; white-space: pre-wrap; }
  .badge { display: inline-block; padding: 0 .4rem; border-radius: .6rem; font-size: .8rem; font-weight: 600; }
  .pass { background: #d6f5dd; color: #11612a; }
  .fail { background: #fbd9d6; color: #8a1c12; }
  .inconclusive { background: #fbefc8; color: #6b4e00; }
  .not-applicable { background: #e8eaf0; color: #4a5163; }
  .ok { color: #11612a; } .error { color: #8a1c12; font-weight: 600; }
  .empty { color: #6a7183; }
</style>
</head>
<body>
<h1>Pet Store fake: QA</h1>
<p>Fake clock: <strong id="clock">...</strong> <span id="status">Loading...</span></p>
<form id="token-form" hidden>
  <label>Control token <input id="token" type="password" autocomplete="off"></label>
  <button type="submit">Use</button>
</form>
<div>
  <button id="freeze" type="button">Freeze clock</button>
  <button id="advance-60" type="button">Advance 60 s</button>
  <button id="advance-300" type="button">Advance 300 s</button>
  <button id="real" type="button">Real time</button>
  <button id="reset" type="button">Reset</button>
  <button id="clear-chaos" type="button">Chaos off</button>
</div>
<h2>Keys</h2>
<p id="keys" class="empty">...</p>
<h2>Chaos and forced answers</h2>
<pre id="chaos">...</pre>
<h2>Client verdicts (Limits, rule 2)</h2>
<p id="judged-on">...</p>
<p id="clients" class="empty">...</p>
<h2>Interface coverage</h2>
<p id="coverage" class="empty">...</p>
<h2>Last requests</h2>
<p id="recent" class="empty">...</p>
<h2>Request journal</h2>
<form id="journal-filter">
  <select name="method"><option value="">any method</option><option>GET</option><option>POST</option><option>OPTIONS</option></select>
  <select name="operationId"><option value="">any operation</option><option>listPets</option><option>createPet</option><option>getPet</option><option>none</option></select>
  <input name="path" placeholder="path prefix" size="10">
  <input name="status" placeholder="status or 4xx" size="9">
  <input name="keyId" placeholder="key id" size="9">
  <input name="clientId" placeholder="client id" size="9">
  <button id="clear-journal" type="button">Clear journal</button>
</form>
<p id="journal-total"></p>
<p id="journal" class="empty">...</p>
<script src="page.js"></script>
</body>
</html>
`;
