/**
 * The live QA page's script (bundled into qa-page-script.generated.ts, served at
 * `<prefix>/page.js`): the control UI mounted as a page of its own (control-page.ts gives its
 * markup) over the control routes, sending the control token with every call.
 */
import type { JournalAnswer } from '../steps/journal/journal-entry.ts';
import type { CoverageRecord } from '../steps/qa/coverage/coverage-record.ts';
import { coverageLine, journalView, qaModel } from './control-model.ts';
import { readFake } from './control-reading.ts';
import { LiveView, onPress, RowTable, setText } from './control-view.ts';

const prefix = location.pathname.replace(/\/+$/, '');
const tokenKey = 'petstore-fake-control-token';
let token = sessionStorage.getItem(tokenKey) ?? '';
// A token handed over in the fragment (never sent to a server) is kept for this tab only.
if (location.hash.startsWith('#token=')) {
  token = decodeURIComponent(location.hash.slice(7));
  sessionStorage.setItem(tokenKey, token);
  history.replaceState(null, '', location.pathname);
}

/** One call to a control route, with the token when there is one. */
async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token !== '') headers['X-Control-Token'] = token;
  const init: RequestInit = { method, headers, cache: 'no-store' };
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body ?? {});
  }
  const res = await fetch(`${prefix}/${path}`, init);
  const data = await res.json();
  // A refusal is its Error body's message, with its code.
  if (!res.ok)
    throw Object.assign(new Error(data.message ?? String(res.status)), { code: data.code });
  return data;
}

const find = (id: string) => document.getElementById(id) as HTMLElement;
const filter = find('journal-filter') as HTMLFormElement;
const status = find('status');
const tokenForm = find('token-form');
const journalTotal = find('journal-total');
const [keys, clients, recent, journal] = ['keys', 'clients', 'recent', 'journal'].map(
  (id) => new RowTable(find(id)),
) as [RowTable, RowTable, RowTable, RowTable];

/** The journal as the filter form asks for it: the newest 50 matches. */
function journalQuery(): string {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(filter))
    if (String(value).trim()) params.set(name, String(value).trim());
  params.set('limit', '50');
  return `requests?${params}`;
}

const live = new LiveView(
  // The page's reading: the fake's, its coverage, and the journal as filtered (or why not).
  async () => {
    const [fake, coverage, matched] = await Promise.all([
      readFake({
        describe: () => call('GET', 'state'),
        clients: () => call('GET', 'clients'),
      }),
      call<CoverageRecord>('GET', 'coverage'),
      // A bad filter is the control surface's 400, said beside the form; the page goes on.
      call<JournalAnswer>('GET', journalQuery()).catch((error: Error) => error),
    ]);
    return { fake, coverage, journal: matched };
  },
  (reading) => {
    const model = qaModel(reading.fake);
    setText(find('clock'), model.clock);
    setText(find('freeze'), reading.fake.frozen ? 'Unfreeze clock' : 'Freeze clock');
    keys.show(model.keys);
    setText(find('chaos'), model.chaos);
    setText(find('judged-on'), model.judgedOn);
    clients.show(model.clients);
    recent.show(model.recent);
    find('coverage').className = '';
    setText(find('coverage'), coverageLine(reading.coverage));
    const matched = reading.journal;
    const view = matched instanceof Error ? undefined : journalView(matched);
    setText(journalTotal, view?.total ?? (matched as Error).message);
    journalTotal.className = view === undefined ? 'error' : '';
    if (view !== undefined) journal.show(view.rows);
    status.textContent = `Live: updated ${new Date().toLocaleTimeString()}`;
    status.className = 'ok';
  },
  (error) => {
    const { code, message } = error as { code?: string; message: string };
    status.textContent = `${code === undefined ? '' : `${code}: `}${message}`;
    status.className = 'error';
    tokenForm.hidden = code !== 'control_forbidden';
  },
);

/** A step of the recipe: one control call, then the page as the fake is now. */
const step = (method: string, path: string, body?: () => unknown) => () =>
  void live.act(() => call(method, path, body?.()));
onPress(document, {
  freeze: step('POST', 'clock', () => ({ freeze: live.reading?.fake.frozen !== true })),
  'advance-60': step('POST', 'clock', () => ({ advance: 60 })),
  'advance-300': step('POST', 'clock', () => ({ advance: 300 })),
  real: step('POST', 'clock', () => ({ real: true })),
  reset: step('POST', 'reset'),
  'clear-chaos': step('DELETE', 'chaos'),
  'clear-journal': step('DELETE', 'requests'),
});
filter.addEventListener('input', () => void live.refresh());
filter.addEventListener('submit', (event) => event.preventDefault());
tokenForm.addEventListener('submit', (event) => {
  event.preventDefault();
  token = (find('token') as HTMLInputElement).value;
  sessionStorage.setItem(tokenKey, token);
  void live.refresh();
});
live.start(1000);
