/**
 * The live page's script, as text the control surface serves at `<prefix>/page.js`. Plain
 * browser JavaScript, no framework: it polls the control surface once a second and renders
 * with `textContent` only, so nothing a client sent (an id, a path) can become markup.
 */
export const pageScript = String.raw`'use strict';
const prefix = location.pathname.replace(/\/+$/, '');
const tokenKey = 'petstore-fake-control-token';
let token = sessionStorage.getItem(tokenKey) || '';
// A token handed over in the fragment (never sent to a server) is kept for this tab only.
if (location.hash.startsWith('#token=')) {
  token = decodeURIComponent(location.hash.slice(7));
  sessionStorage.setItem(tokenKey, token);
  history.replaceState(null, '', location.pathname);
}

async function call(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (token) headers['X-Control-Token'] = token;
  const init = { method, headers, cache: 'no-store' };
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body || {});
  }
  const res = await fetch(prefix + '/' + path, init);
  const data = await res.json();
  if (!res.ok) throw Object.assign(new Error(data.message || String(res.status)), { code: data.code });
  return data;
}

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (name === 'text') node.textContent = value;
    else if (name === 'onclick') node.addEventListener('click', value);
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

function row(cells, header) {
  return el('tr', {}, ...cells.map((cell) =>
    cell instanceof Node ? el(header ? 'th' : 'td', {}, cell) : el(header ? 'th' : 'td', { text: String(cell) })));
}

function table(id, head, rows, empty) {
  if (rows.length === 0) return el('p', { class: 'empty', id, text: empty });
  return el('table', { id }, el('thead', {}, row(head, true)), el('tbody', {}, ...rows.map((r) => row(r))));
}

function duration(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 120) return s + ' s';
  if (s < 7200) return Math.round(s / 60) + ' min';
  return (s / 3600).toFixed(1) + ' h';
}

function badge(verdict) {
  return el('span', { class: 'badge ' + verdict, text: verdict });
}

// Which items of the interface no request exercised yet: what the tests still owe.
function renderCoverage(c) {
  const never = c.items.filter((i) => i.status !== 'exercised').map((i) => i.id);
  document.getElementById('coverage').replaceWith(el('p', { id: 'coverage', text:
    c.summary.exercised + ' of ' + c.summary.items + ' items exercised by ' + c.summary.exchanges +
    ' requests' + (never.length ? '; never: ' + never.join(', ') : '.') }));
}

function render(state, report) {
  const now = Date.parse(state.now);
  const minuteReset = Math.floor(now / 60000) * 60000 + 60000;
  const dayReset = Math.floor(now / 86400000) * 86400000 + 86400000;
  document.getElementById('clock').textContent =
    state.now + (state.clockFrozen ? ' (frozen)' : ' (ticking)');
  document.getElementById('freeze').textContent = state.clockFrozen ? 'Unfreeze clock' : 'Freeze clock';
  const keys = state.keys.map((k) => [
    k.id,
    k.plan + (k.overridden ? ' (own limits)' : ''),
    k.usage.minute + ' / ' + k.limits.perMinute + ', resets in ' + duration(minuteReset - now),
    k.usage.day + ' / ' + k.limits.perDay + ', resets in ' + duration(dayReset - now),
    k.bannedUntil ? 'banned ' + duration(Date.parse(k.bannedUntil) - now) + ' more' : 'no',
  ]);
  document.getElementById('keys').replaceWith(
    table('keys', ['Key', 'Plan', 'This minute', 'Today', 'Ban'], keys, 'No keys.'));
  const forced = Object.entries(state.forced).map(([op, rule]) => op + ': next ' + rule.remaining + ' answer(s) ' + rule.status);
  const stubs = state.stubs.map((s) => s.id + ' ' + s.operationId + ' ' + (s.answer.status || 'drop') + ': ' + s.breaks.join('; '));
  document.getElementById('chaos').textContent =
    (state.chaos ? JSON.stringify(state.chaos, null, 1) : 'Chaos off.') +
    (forced.length ? '\nForced: ' + forced.join('; ') : '') +
    (stubs.length ? '\nStubs: ' + stubs.join('\n') : '');
  document.getElementById('judged-on').textContent = judgedOn(report.clock);
  const clients = report.clients.map((c) => [
    c.keyId,
    c.clientId,
    badge(c.verdict),
    el('span', {}, badge(c.rules.retryAfter.verdict),
      ' ' + c.rules.retryAfter.earlyRequests + ' early of ' + c.rules.retryAfter.judgedRequests + ' judged' +
      (c.rules.retryAfter.ambiguousEarly ? ', ' + c.rules.retryAfter.ambiguousEarly + ' in doubt' : '')),
    el('span', {}, badge(c.rules.backoff.verdict),
      ' waits ' + c.rules.backoff.waits.map((w) => w.waitMs < 1e3 ? w.waitMs + ' ms' : w.waitMs / 1e3 + ' s').join(', ')),
    el('span', {}, badge(c.rules.ban.verdict), ' ' + c.rules.ban.bans + ' ban(s)'),
    el('span', {}, badge(c.rules.resentCreates.verdict),
      ' ' + c.rules.resentCreates.possibleDuplicates + ' possible duplicate(s)'),
    copies(c),
    reasons(c),
  ]);
  document.getElementById('clients').replaceWith(table('clients',
    ['Key', 'Client', 'Verdict', 'Retry-After', 'Backoff', 'Ban', 'Resent creates', 'Copies', 'Why'], clients,
    'No client has sent a request with a key yet.'));
  const recent = report.recent.map((r) => [
    r.at === r.realAt ? r.at.slice(11, 23) : r.at.slice(11, 23) + ' (real ' + r.realAt.slice(11, 23) + ')',
    r.keyId, r.clientId, r.connection, r.method + ' ' + r.path,
    r.dropped ? 'dropped' : r.status, r.errorCode || '', r.chaos ? 'chaos' : '', r.latencyMs + ' ms',
  ]);
  document.getElementById('recent').replaceWith(table('recent',
    ['Time', 'Key', 'Client', 'Connection', 'Request', 'Status', 'Code', '', 'Latency'], recent, 'No requests yet.'));
}

// The journal as the filter form asks for it: the newest 50 matches.
function journalQuery() {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(document.getElementById('journal-filter')))
    if (String(value).trim()) params.set(name, String(value).trim());
  params.set('limit', '50');
  return 'requests?' + params;
}

function renderJournal(j) {
  const total = document.getElementById('journal-total');
  total.className = '';
  total.textContent = j.total + ' request(s) match' + (j.total > j.requests.length ? ', the newest ' + j.requests.length + ' shown' : '') +
    (j.dropped ? '; ' + j.dropped + ' older one(s) dropped to stay within the bounds' : '');
  const marks = ['forced', 'chaos', 'stubbed', 'dropped', 'refusedEarly'];
  const rows = j.requests.map((r) => [
    '#' + r.seq, r.at.slice(11, 23), r.keyId, r.clientId, r.method + ' ' + r.path + r.query,
    r.status, r.errorCode || '', marks.filter((m) => r[m]).join(' '),
    r.headers['X-RateLimit-Remaining'] ?? '', r.headers['Retry-After'] ?? '', r.durationMs + ' ms',
  ]);
  document.getElementById('journal').replaceWith(table('journal',
    ['#', 'Time', 'Key', 'Client', 'Request', 'Status', 'Code', 'Marks', 'Remaining', 'Retry-After', 'Took'], rows, 'No request matches.'));
}

// A bad filter is the control surface's 400, said beside the form; the rest of the page goes on.
async function refreshJournal() {
  try {
    renderJournal(await call('GET', journalQuery()));
  } catch (error) {
    const total = document.getElementById('journal-total');
    total.textContent = error.message;
    total.className = 'error';
  }
}

// What the verdicts were measured on: a frozen or shifted clock is said, never hidden.
function judgedOn(clock) {
  const both = 'waits measured on real time and on the fake clock; the longer counts';
  if (clock.mode === 'frozen') return 'Fake clock frozen: ' + both + '.';
  if (clock.mode === 'shifted') return 'Fake clock shifted by ' + duration(Math.abs(clock.offsetMs)) + (clock.offsetMs < 0 ? ' back' : ' ahead') + ': ' + both + '.';
  return 'Fake clock on real time.';
}

// How the report told this client's copies apart: declared one copy, or by connection.
function copies(c) {
  return c.oneCopy ? 'one copy (declared)' : c.connections + ' connection(s)';
}

// Every rule that is not a pass says why: failures first, then doubts.
function reasons(c) {
  return c.problems.concat(c.doubts).join(' | ') || '-';
}

function showError(error) {
  const status = document.getElementById('status');
  status.textContent = (error.code ? error.code + ': ' : '') + error.message;
  status.className = 'error';
  document.getElementById('token-form').hidden = error.code !== 'control_forbidden';
}

async function refresh() {
  try {
    const [state, report, coverage] = await Promise.all([call('GET', 'state'), call('GET', 'clients'), call('GET', 'coverage')]);
    render(state, report);
    renderCoverage(coverage);
    await refreshJournal();
    const status = document.getElementById('status');
    status.textContent = 'Live: updated ' + new Date().toLocaleTimeString();
    status.className = 'ok';
  } catch (error) {
    showError(error);
  }
}

async function act(method, path, body) {
  try {
    await call(method, path, body);
  } catch (error) {
    showError(error);
  }
  await refresh();
}

const actions = {
  freeze: () => act('POST', 'clock', { freeze: !document.getElementById('clock').textContent.endsWith('(frozen)') }),
  'advance-60': () => act('POST', 'clock', { advance: 60 }),
  'advance-300': () => act('POST', 'clock', { advance: 300 }),
  real: () => act('POST', 'clock', { real: true }),
  reset: () => act('POST', 'reset', {}),
  'clear-chaos': () => act('DELETE', 'chaos'),
  'clear-journal': () => act('DELETE', 'requests'),
};
const journalFilter = document.getElementById('journal-filter');
journalFilter.addEventListener('input', () => void refreshJournal());
journalFilter.addEventListener('submit', (event) => event.preventDefault());
for (const [id, run] of Object.entries(actions)) document.getElementById(id).addEventListener('click', run);
document.getElementById('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  token = document.getElementById('token').value;
  sessionStorage.setItem(tokenKey, token);
  void refresh();
});
void refresh();
setInterval(refresh, 1000);
`;
