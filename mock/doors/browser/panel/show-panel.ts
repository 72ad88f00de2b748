/**
 * A small panel in the app's page that shows the fake and steers it, as TanStack Query's and
 * Redux's devtools do for theirs: each key the page used with its plan, X-RateLimit-Remaining and
 * the time to its reset, a ban and the time left, the fake's clock, forced answers and chaos, the
 * last requests; buttons to reset, lift a ban, force the next 429 or 503 and turn chaos on or off.
 *
 * It reads and steers through `fake.control` only (panel-reading.ts): it spends no request of any
 * key, and in the browser it shows the one fake the tabs share, whichever tab runs it. It lives in
 * a shadow root appended to `document.body`, so the app's styles do not reach it and it needs no
 * element of the app (a Storybook page has it too); it never takes the keyboard focus (no
 * autofocus; its buttons are in the tab order after the app's). Collapsed or not is kept in
 * `localStorage`.
 */
import { operationIds } from '../../../base/contract/schemas.ts';
import type { ChaosSettings } from '../../../index.ts';
import { duration, type KeyView, type PanelModel, panelModel } from './panel-model.ts';
import { type PanelControl, type PanelReading, readFake } from './panel-reading.ts';
import { panelStyles } from './panel-styles.ts';

/** Options of `showPanel`. */
export interface PanelOptions {
  /**
   * What "Chaos on" sets. Default: seed 42, on every operation 5% 503 and 0-250 ms of latency
   * (docs/qa.md, "Chaos").
   */
  readonly chaos?: ChaosSettings;
  /** How often the panel reads the fake, ms (at least 250). Default 1000. */
  readonly refreshMs?: number;
}

/** The panel in the page. */
export interface Panel {
  /** The panel's element (its shadow root holds the rest). */
  readonly element: HTMLElement;
  /** Reads the fake now and shows it; resolves once shown. */
  refresh(): Promise<void>;
  /** Stops reading the fake and removes the panel. */
  close(): void;
}

const defaultChaos: ChaosSettings = {
  seed: 42,
  rules: [{ errors: { '503': 0.05 }, latency: { distribution: 'uniform', minMs: 0, maxMs: 250 } }],
};

/** The panel's element name: an app's selector for its own elements will not match it. */
const tagName = 'petstore-fake-panel';
/** Where the panel keeps whether it is collapsed. */
const collapsedKey = 'petstore-fake-panel:collapsed';

/** The panel shown on each document, so a second `showPanel` replaces the first. */
const shown = new WeakMap<Document, Panel>();

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className !== undefined) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Writes text only when it changed, so a steady panel does not touch the DOM every tick. */
function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/** Reads a flag from localStorage; storage a browser refuses counts as not set. */
function remembered(key: string): boolean {
  try {
    return localStorage.getItem(key) === 'true';
  } catch {
    return false;
  }
}

function remember(key: string, value: boolean): void {
  try {
    localStorage.setItem(key, String(value));
  } catch {
    // Storage refused (a sandboxed frame): the panel works, it only forgets on reload.
  }
}

/** One key's row, kept across updates so that its Lift button keeps the focus it has. */
interface KeyRow {
  readonly row: HTMLTableRowElement;
  readonly plan: HTMLTableCellElement;
  readonly remaining: HTMLTableCellElement;
  readonly reset: HTMLTableCellElement;
  readonly ban: HTMLTableCellElement;
  readonly banText: HTMLSpanElement;
  readonly lift: HTMLButtonElement;
}

/**
 * Shows the panel over the page for `fake` (from `createBrowserFake`, `startFakeWorker` or
 * `createFake`), in development only, as the fake itself is.
 * @example
 * const fake = await createBrowserFake();
 * showPanel(fake);
 */
export function showPanel(
  fake: { readonly control: PanelControl },
  options: PanelOptions = {},
): Panel {
  shown.get(document)?.close();
  const { control } = fake;
  const chaos = options.chaos ?? defaultChaos;
  const refreshMs = Math.max(250, options.refreshMs ?? 1000);

  const host = document.createElement(tagName);
  const root = host.attachShadow({ mode: 'open' });
  const style = element('style');
  style.textContent = panelStyles;
  const panel = element('section', 'panel');
  panel.setAttribute('aria-label', 'Pet Store fake');

  const toggle = element('button', 'toggle');
  toggle.type = 'button';
  const header = element('header');
  header.append(toggle, element('span', 'title', 'Pet Store fake'));
  const summary = element('span', 'summary');
  header.append(summary);

  const body = element('div', 'body');
  body.id = 'petstore-fake-panel-body';
  toggle.setAttribute('aria-controls', body.id);
  const clock = element('span', 'clock-text');
  const clockLine = element('p', 'clock');
  clockLine.append(element('span', 'label', 'Clock'), clock);
  const keysTable = element('table', 'keys');
  const keysHead = element('tr');
  for (const name of ['Key', 'Plan', 'Remaining', 'Resets in', 'Ban'])
    keysHead.append(element('th', undefined, name));
  keysTable.append(element('thead'), element('tbody'));
  keysTable.tHead?.append(keysHead);
  const keysBody = keysTable.tBodies[0] as HTMLTableSectionElement;
  const noKeys = element('p', 'empty no-keys', 'No key used yet: the page’s requests show here.');
  const forcedLine = element('p', 'forced');
  const forcedText = element('span', 'forced-text');
  forcedLine.append(element('span', 'label', 'Forced'), forcedText);
  const chaosLine = element('p', 'chaos');
  const chaosText = element('span', 'chaos-text');
  chaosLine.append(element('span', 'label', 'Chaos'), chaosText);

  const actions = element('div', 'actions');
  const operation = element('select', 'operation');
  operation.setAttribute('aria-label', 'Operation to force');
  for (const id of operationIds) operation.append(new Option(id, id));
  const button = (className: string, text: string, label: string) => {
    const made = element('button', className, text);
    made.type = 'button';
    made.title = label;
    return made;
  };
  const force429 = button('force-429', 'Next 429', 'Force the next answer of the operation to 429');
  const force503 = button('force-503', 'Next 503', 'Force the next answer of the operation to 503');
  const chaosToggle = button('chaos-toggle', 'Chaos on', 'Turn chaos on or off');
  const reset = button(
    'reset',
    'Reset',
    'Back to the seed: no usage, bans, forced answers or chaos; real time',
  );
  actions.append(operation, force429, force503, chaosToggle, reset);

  const recentTable = element('table', 'recent');
  recentTable.append(element('tbody'));
  const recentBody = recentTable.tBodies[0] as HTMLTableSectionElement;
  const noRecent = element('p', 'empty no-recent', 'No request with a key yet.');
  const status = element('p', 'message');
  status.setAttribute('role', 'status');

  body.append(
    clockLine,
    keysTable,
    noKeys,
    forcedLine,
    chaosLine,
    actions,
    element('h3', undefined, 'Last requests'),
    recentTable,
    noRecent,
    status,
  );
  panel.append(header, body);
  root.append(style, panel);

  const setCollapsed = (collapsed: boolean) => {
    panel.classList.toggle('collapsed', collapsed);
    toggle.setAttribute('aria-expanded', String(!collapsed));
    toggle.setAttribute(
      'aria-label',
      collapsed ? 'Expand the Pet Store fake panel' : 'Collapse the Pet Store fake panel',
    );
  };
  setCollapsed(remembered(collapsedKey));
  toggle.addEventListener('click', () => {
    const collapsed = !panel.classList.contains('collapsed');
    setCollapsed(collapsed);
    remember(collapsedKey, collapsed);
  });

  let reading: PanelReading | undefined;
  let model: PanelModel | undefined;
  const rows = new Map<string, KeyRow>();

  const say = (text: string, error = false) => {
    setText(status, text);
    status.classList.toggle('error', error);
  };

  const keyRow = (view: KeyView): KeyRow => {
    const existing = rows.get(view.id);
    if (existing !== undefined) return existing;
    const row = element('tr');
    row.dataset.key = view.id;
    const cells = {
      plan: element('td', 'plan'),
      remaining: element('td', 'remaining'),
      reset: element('td', 'reset'),
      ban: element('td', 'ban'),
    };
    const banText = element('span', 'ban-text');
    const lift = button(
      'lift',
      'Lift',
      `Lift the ban of ${view.id}: move the fake's clock past its end`,
    );
    lift.addEventListener('click', () => void act(() => liftBan(view.id)));
    cells.ban.append(banText, lift);
    row.append(element('td', 'key', view.id), cells.plan, cells.remaining, cells.reset, cells.ban);
    const made = { row, ...cells, banText, lift };
    rows.set(view.id, made);
    return made;
  };

  /** The reading the recent requests' rows were last built from: they change with a new one only. */
  let recentFrom: typeof reading;

  const render = () => {
    if (reading === undefined) return;
    model = panelModel(reading, Date.now());
    setText(summary, model.summary);
    setText(clock, model.clock);
    const seen = new Set<string>();
    model.keys.forEach((view, index) => {
      seen.add(view.id);
      const row = keyRow(view);
      if (keysBody.rows[index] !== row.row)
        keysBody.insertBefore(row.row, keysBody.rows[index] ?? null);
      setText(row.plan, view.plan);
      setText(
        row.remaining,
        `${view.remaining} / ${view.limit}${view.window === 'day' ? ' today' : ''}`,
      );
      row.remaining.classList.toggle('none', view.remaining === 0);
      row.remaining.classList.toggle(
        'low',
        view.remaining > 0 && view.remaining <= view.limit / 10,
      );
      setText(row.reset, duration(view.resetInMs));
      const banned = view.bannedUntil !== undefined;
      setText(row.banText, banned ? duration(view.banLeftMs) : 'no');
      row.ban.classList.toggle('banned', banned);
      row.lift.hidden = !banned;
    });
    for (const [id, row] of rows) {
      if (seen.has(id)) continue;
      // A row that holds the focus stays until the focus leaves it (a reset clears the keys).
      if (row.row.contains(root.activeElement)) continue;
      row.row.remove();
      rows.delete(id);
    }
    keysTable.hidden = model.keys.length === 0;
    noKeys.hidden = model.keys.length > 0;
    setText(forcedText, model.forced.join('; ') || 'none');
    setText(chaosText, model.chaos.on ? model.chaos.lines.join('; ') : 'off');
    setText(chaosToggle, model.chaos.on ? 'Chaos off' : 'Chaos on');
    // The countdowns tick every 250 ms; the requests change with a new reading only.
    if (recentFrom === reading) return;
    recentFrom = reading;
    const lines = model.recent.map((request) => {
      const row = element('tr');
      const failed = request.status === 'dropped' || Number(request.status) >= 400;
      row.append(
        element('td', 'at', request.at),
        element('td', `status ${failed ? 'failed' : 'ok'}`, request.status),
        element('td', 'request', request.request),
        element('td', 'note', request.note),
        element('td', 'key', request.keyId),
      );
      return row;
    });
    const text = lines.map((row) => row.textContent).join('\n');
    if (text !== [...recentBody.rows].map((row) => row.textContent).join('\n'))
      recentBody.replaceChildren(...lines);
    recentTable.hidden = lines.length === 0;
    noRecent.hidden = lines.length > 0;
  };

  let reads = 0;
  const refresh = async () => {
    const read = ++reads;
    try {
      const next = await readFake(control);
      // An older read that settles after a newer one must not show the past.
      if (read !== reads) return;
      reading = next;
      if (status.classList.contains('error')) say('');
      render();
    } catch (error) {
      say(`Cannot read the fake: ${error instanceof Error ? error.message : String(error)}`, true);
    }
  };

  /** Runs a button's action, says what it did or why not, then shows the fake as it is now. */
  const act = async (action: () => Promise<string>) => {
    try {
      say(await action());
    } catch (error) {
      say(error instanceof Error ? error.message : String(error), true);
    }
    await refresh();
  };

  /** Moves the fake's clock just past the end of a key's ban (the ban is the key's, the clock everyone's). */
  const liftBan = async (keyId: string) => {
    const bannedUntil = model?.keys.find((key) => key.id === keyId)?.bannedUntil;
    if (bannedUntil === undefined) return `${keyId} is not banned`;
    const seconds = Math.ceil((bannedUntil - (await control.now())) / 1000);
    if (seconds <= 0) return `${keyId}'s ban has ended`;
    await control.advanceTime(seconds);
    return `Ban of ${keyId} lifted: the fake's clock moved ${duration(seconds * 1000)} ahead`;
  };

  const forceNext = (statusCode: 429 | 503) => async () => {
    const operationId = operation.value as (typeof operationIds)[number];
    await control.force(operationId, statusCode, 1);
    return `The next ${operationId} answers ${statusCode}`;
  };
  force429.addEventListener('click', () => void act(forceNext(429)));
  force503.addEventListener('click', () => void act(forceNext(503)));
  chaosToggle.addEventListener(
    'click',
    () =>
      void act(async () => {
        if (reading?.chaos !== null && reading?.chaos !== undefined) {
          await control.clearChaos();
          return 'Chaos off';
        }
        const settings = await control.setChaos(chaos);
        return `Chaos on (seed ${settings.seed})`;
      }),
  );
  reset.addEventListener(
    'click',
    () =>
      void act(async () => {
        await control.reset();
        return 'Reset: seed pets, no usage, bans, forced answers or chaos, real time';
      }),
  );

  // Read the fake while the page is seen; between reads, the countdowns run on the reading.
  const poll = setInterval(() => {
    if (!document.hidden) void refresh();
  }, refreshMs);
  const tick = setInterval(render, 250);
  const onVisible = () => {
    if (!document.hidden) void refresh();
  };
  document.addEventListener('visibilitychange', onVisible);

  (document.body ?? document.documentElement).append(host);
  const handle: Panel = {
    element: host,
    refresh,
    close() {
      clearInterval(poll);
      clearInterval(tick);
      document.removeEventListener('visibilitychange', onVisible);
      host.remove();
      if (shown.get(document) === handle) shown.delete(document);
    },
  };
  shown.set(document, handle);
  void refresh();
  return handle;
}
