/**
 * The live QA page's script (the browser entry bundled into qa-page-script.generated.ts, which
 * the control surface serves at `<prefix>/page.js`): the control UI mounted as a page of its
 * own, over the control routes over HTTP, sending the control token with every call. Every key
 * with its minute and day, chaos, forced answers and stubs, the client verdicts, coverage, the
 * last requests and the journal as a table that filters; buttons for the recipe's steps.
 */

import type { JournalAnswer } from '../steps/journal/journal-entry.ts';
import type { CoverageRecord } from '../steps/qa/coverage/coverage-record.ts';
import { coverageLine, journalView, qaModel } from './control-model.ts';
import { type ControlReading, readFake } from './control-reading.ts';
import { button, element, LiveView, RowTable, setText } from './control-view.ts';

const prefix = location.pathname.replace(/\/+$/, '');
const tokenKey = 'petstore-fake-control-token';
let token = sessionStorage.getItem(tokenKey) ?? '';
// A token handed over in the fragment (never sent to a server) is kept for this tab only.
if (location.hash.startsWith('#token=')) {
  token = decodeURIComponent(location.hash.slice(7));
  sessionStorage.setItem(tokenKey, token);
  history.replaceState(null, '', location.pathname);
}

/** A control route's refusal: its message, with the Error body's code. */
class ControlCallError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined) {
    super(message);
    this.code = code;
  }
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
  if (!res.ok) throw new ControlCallError(data.message ?? String(res.status), data.code);
  return data;
}

/** The control functions the page reads with, over the control routes. */
const http = {
  describe: () => call<Record<string, unknown>>('GET', 'state'),
  clients: () => call<ControlReading['report']>('GET', 'clients'),
};

/** The page's reading: the fake's, its coverage, and the journal as filtered (or why not). */
interface QaReading {
  readonly fake: ControlReading;
  readonly coverage: CoverageRecord;
  readonly journal: JournalAnswer | Error;
}

/** The journal as the filter form asks for it: the newest 50 matches. */
function journalQuery(): string {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(filter))
    if (String(value).trim()) params.set(name, String(value).trim());
  params.set('limit', '50');
  return `requests?${params}`;
}

function section(parent: HTMLElement, title: string, ...content: HTMLElement[]): void {
  parent.append(element('h2', undefined, title), ...content);
}

function withId<T extends HTMLElement>(made: T, id: string): T {
  made.id = id;
  return made;
}

const clock = withId(element('strong', undefined, '...'), 'clock');
const status = withId(element('span', undefined, 'Loading...'), 'status');
const tokenForm = withId(element('form'), 'token-form');
const tokenInput = withId(element('input'), 'token');
const chaos = withId(element('pre', undefined, '...'), 'chaos');
const judgedOn = withId(element('p', undefined, '...'), 'judged-on');
const coverage = withId(element('p', 'empty', '...'), 'coverage');
const filter = withId(element('form'), 'journal-filter');
const journalTotal = withId(element('p'), 'journal-total');
const keys = new RowTable('keys', ['Key', 'Plan', 'This minute', 'Today', 'Ban'], 'No keys.');
const clients = new RowTable(
  'clients',
  ['Key', 'Client', 'Verdict', 'Retry-After', 'Backoff', 'Ban', 'Resent creates', 'Copies', 'Why'],
  'No client has sent a request with a key yet.',
);
const recent = new RowTable(
  'recent',
  ['Time', 'Key', 'Client', 'Connection', 'Request', 'Status', 'Code', '', 'Latency'],
  'No requests yet.',
);
const journal = new RowTable(
  'journal',
  [
    '#',
    'Time',
    'Key',
    'Client',
    'Request',
    'Status',
    'Code',
    'Marks',
    'Remaining',
    'Retry-After',
    'Took',
  ],
  'No request matches.',
);

const live = new LiveView<QaReading>({
  read: async () => {
    const [fake, covered, matched] = await Promise.all([
      readFake(http),
      call<CoverageRecord>('GET', 'coverage'),
      // A bad filter is the control surface's 400, said beside the form; the page goes on.
      call<JournalAnswer>('GET', journalQuery()).catch((error: Error) => error),
    ]);
    return { fake, coverage: covered, journal: matched };
  },
  show(reading) {
    const model = qaModel(reading.fake);
    setText(clock, model.clock);
    setText(freeze, reading.fake.frozen ? 'Unfreeze clock' : 'Freeze clock');
    keys.show(model.keys);
    setText(chaos, model.chaos);
    setText(judgedOn, model.judgedOn);
    clients.show(model.clients);
    recent.show(model.recent);
    coverage.className = '';
    setText(coverage, coverageLine(reading.coverage));
    if (reading.journal instanceof Error) {
      setText(journalTotal, reading.journal.message);
      journalTotal.className = 'error';
    } else {
      const view = journalView(reading.journal);
      setText(journalTotal, view.total);
      journalTotal.className = '';
      journal.show(view.rows);
    }
    status.textContent = `Live: updated ${new Date().toLocaleTimeString()}`;
    status.className = 'ok';
  },
  say() {},
  failed(error) {
    const code = error instanceof ControlCallError ? error.code : undefined;
    status.textContent = `${code === undefined ? '' : `${code}: `}${error instanceof Error ? error.message : String(error)}`;
    status.className = 'error';
    tokenForm.hidden = code !== 'control_forbidden';
  },
});

/** A button of the recipe: one control call, then the page as the fake is now. */
function step(id: string, text: string, method: string, path: string, body?: () => unknown) {
  return withId(
    button('', text, '', () => void live.act(() => call(method, path, body?.() ?? {}))),
    id,
  );
}

const freeze = step('freeze', 'Freeze clock', 'POST', 'clock', () => ({
  freeze: live.reading?.fake.frozen !== true,
}));
const actions = element('div', 'actions');
actions.append(
  freeze,
  step('advance-60', 'Advance 60 s', 'POST', 'clock', () => ({ advance: 60 })),
  step('advance-300', 'Advance 300 s', 'POST', 'clock', () => ({ advance: 300 })),
  step('real', 'Real time', 'POST', 'clock', () => ({ real: true })),
  step('reset', 'Reset', 'POST', 'reset'),
  step('clear-chaos', 'Chaos off', 'DELETE', 'chaos'),
);

tokenForm.hidden = true;
tokenInput.type = 'password';
tokenInput.autocomplete = 'off';
const tokenLabel = element('label', undefined, 'Control token ');
tokenLabel.append(tokenInput);
const use = element('button', undefined, 'Use');
use.type = 'submit';
tokenForm.append(tokenLabel, ' ', use);
tokenForm.addEventListener('submit', (event) => {
  event.preventDefault();
  token = tokenInput.value;
  sessionStorage.setItem(tokenKey, token);
  void live.refresh();
});

/** A select of the journal's filter, `any <what>` first. */
function choice(name: string, any: string, values: readonly string[]): HTMLSelectElement {
  const select = element('select');
  select.name = name;
  select.append(new Option(any, ''), ...values.map((value) => new Option(value, value)));
  return select;
}
function field(name: string, placeholder: string, size: number): HTMLInputElement {
  const input = element('input');
  Object.assign(input, { name, placeholder, size });
  return input;
}
filter.append(
  choice('method', 'any method', ['GET', 'POST', 'OPTIONS']),
  choice('operationId', 'any operation', ['listPets', 'createPet', 'getPet', 'none']),
  field('path', 'path prefix', 10),
  field('status', 'status or 4xx', 9),
  field('keyId', 'key id', 9),
  field('clientId', 'client id', 9),
  step('clear-journal', 'Clear journal', 'DELETE', 'requests'),
);
filter.addEventListener('input', () => void live.refresh());
filter.addEventListener('submit', (event) => event.preventDefault());

const clockLine = element('p', undefined, 'Fake clock: ');
clockLine.append(clock, ' ', status);
document.body.append(element('h1', undefined, 'Pet Store fake: QA'), clockLine, tokenForm, actions);
section(document.body, 'Keys', keys.element);
section(document.body, 'Chaos and forced answers', chaos);
section(document.body, 'Client verdicts (Limits, rule 2)', judgedOn, clients.element);
section(document.body, 'Interface coverage', coverage);
section(document.body, 'Last requests', recent.element);
section(document.body, 'Request journal', filter, journalTotal, journal.element);
live.start(1000);
