/**
 * The panel's elements and how a reading shows in them: built once in a shadow root, then
 * updated in place (text only where it changed, a key's row kept across updates), so a steady
 * panel does not touch the DOM every tick and a focused button keeps its focus. What the panel
 * does when a button is pressed is show-panel.ts's; this file only says which button was.
 */
import { operationIds } from '../../../base/contract/schemas.ts';
import type { OperationId } from '../../../base/contract/types.ts';
import { duration, type KeyView, type PanelModel } from './panel-model.ts';
import { panelStyles } from './panel-styles.ts';

/** The panel's element name: an app's selector for its own elements will not match it. */
const tagName = 'petstore-fake-panel';

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

function button(className: string, text: string, label: string): HTMLButtonElement {
  const made = element('button', className, text);
  made.type = 'button';
  made.title = label;
  return made;
}

/** Writes text only when it changed, so a steady panel does not touch the DOM every tick. */
function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
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

/** What the panel's buttons ask for; show-panel.ts carries each out. */
export interface PanelActions {
  toggled(collapsed: boolean): void;
  lift(keyId: string): void;
  forceNext(operationId: OperationId, status: 429 | 503): void;
  toggleChaos(): void;
  reset(): void;
}

/** The panel's elements, in a shadow root of `host`. */
export class PanelView {
  /** The element appended to the page; its shadow root holds the rest. */
  readonly host = document.createElement(tagName);
  readonly #root = this.host.attachShadow({ mode: 'open' });
  readonly #panel = element('section', 'panel');
  readonly #toggle = element('button', 'toggle');
  readonly #summary = element('span', 'summary');
  readonly #clock = element('span', 'clock-text');
  readonly #keysTable = element('table', 'keys');
  readonly #keysBody = element('tbody');
  readonly #noKeys = element(
    'p',
    'empty no-keys',
    'No key used yet: the page’s requests show here.',
  );
  readonly #forcedText = element('span', 'forced-text');
  readonly #chaosText = element('span', 'chaos-text');
  readonly #chaosToggle = button('chaos-toggle', 'Chaos on', 'Turn chaos on or off');
  readonly #recentTable = element('table', 'recent');
  readonly #recentBody = element('tbody');
  readonly #noRecent = element('p', 'empty no-recent', 'No request with a key yet.');
  readonly #status = element('p', 'message');
  readonly #rows = new Map<string, KeyRow>();
  readonly #actions: PanelActions;

  constructor(actions: PanelActions) {
    this.#actions = actions;
    const style = element('style');
    style.textContent = panelStyles;
    this.#panel.setAttribute('aria-label', 'Pet Store fake');
    this.#panel.append(this.#header(), this.#body());
    this.#root.append(style, this.#panel);
  }

  #header(): HTMLElement {
    this.#toggle.type = 'button';
    this.#toggle.setAttribute('aria-controls', 'petstore-fake-panel-body');
    this.#toggle.addEventListener('click', () => {
      const collapsed = !this.#panel.classList.contains('collapsed');
      this.setCollapsed(collapsed);
      this.#actions.toggled(collapsed);
    });
    const header = element('header');
    header.append(this.#toggle, element('span', 'title', 'Pet Store fake'), this.#summary);
    return header;
  }

  #body(): HTMLElement {
    const body = element('div', 'body');
    body.id = 'petstore-fake-panel-body';
    const line = (className: string, label: string, text: HTMLElement) => {
      const made = element('p', className);
      made.append(element('span', 'label', label), text);
      return made;
    };
    const keysHead = element('tr');
    for (const name of ['Key', 'Plan', 'Remaining', 'Resets in', 'Ban'])
      keysHead.append(element('th', undefined, name));
    const thead = element('thead');
    thead.append(keysHead);
    this.#keysTable.append(thead, this.#keysBody);
    this.#recentTable.append(this.#recentBody);
    this.#status.setAttribute('role', 'status');
    body.append(
      line('clock', 'Clock', this.#clock),
      this.#keysTable,
      this.#noKeys,
      line('forced', 'Forced', this.#forcedText),
      line('chaos', 'Chaos', this.#chaosText),
      this.#buttons(),
      element('h3', undefined, 'Last requests'),
      this.#recentTable,
      this.#noRecent,
      this.#status,
    );
    return body;
  }

  #buttons(): HTMLElement {
    const operation = element('select', 'operation');
    operation.setAttribute('aria-label', 'Operation to force');
    for (const id of operationIds) operation.append(new Option(id, id));
    const force = (status: 429 | 503) => {
      const made = button(
        `force-${status}`,
        `Next ${status}`,
        `Force the next answer of the operation to ${status}`,
      );
      made.addEventListener('click', () =>
        this.#actions.forceNext(operation.value as OperationId, status),
      );
      return made;
    };
    this.#chaosToggle.addEventListener('click', () => this.#actions.toggleChaos());
    const reset = button(
      'reset',
      'Reset',
      'Back to the seed: no usage, bans, forced answers or chaos; real time',
    );
    reset.addEventListener('click', () => this.#actions.reset());
    const actions = element('div', 'actions');
    actions.append(operation, force(429), force(503), this.#chaosToggle, reset);
    return actions;
  }

  setCollapsed(collapsed: boolean): void {
    this.#panel.classList.toggle('collapsed', collapsed);
    this.#toggle.setAttribute('aria-expanded', String(!collapsed));
    this.#toggle.setAttribute(
      'aria-label',
      collapsed ? 'Expand the Pet Store fake panel' : 'Collapse the Pet Store fake panel',
    );
  }

  /** Shows a message in the panel's status line, as an error or not. */
  say(text: string, error = false): void {
    setText(this.#status, text);
    this.#status.classList.toggle('error', error);
  }

  /** Whether the status line shows an error. */
  get saysError(): boolean {
    return this.#status.classList.contains('error');
  }

  /**
   * Shows `model`; the last requests only when `newReading` (the countdowns tick every 250 ms on
   * one reading, the requests change with a new one only).
   */
  show(model: PanelModel, newReading: boolean): void {
    setText(this.#summary, model.summary);
    setText(this.#clock, model.clock);
    this.#showKeys(model.keys);
    setText(this.#forcedText, model.forced.join('; ') || 'none');
    setText(this.#chaosText, model.chaos.on ? model.chaos.lines.join('; ') : 'off');
    setText(this.#chaosToggle, model.chaos.on ? 'Chaos off' : 'Chaos on');
    if (newReading) this.#showRecent(model.recent);
  }

  #showKeys(keys: PanelModel['keys']): void {
    const seen = new Set<string>();
    keys.forEach((view, index) => {
      seen.add(view.id);
      const row = this.#keyRow(view);
      if (this.#keysBody.rows[index] !== row.row)
        this.#keysBody.insertBefore(row.row, this.#keysBody.rows[index] ?? null);
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
    for (const [id, row] of this.#rows) {
      if (seen.has(id)) continue;
      // A row that holds the focus stays until the focus leaves it (a reset clears the keys).
      if (row.row.contains(this.#root.activeElement)) continue;
      row.row.remove();
      this.#rows.delete(id);
    }
    this.#keysTable.hidden = keys.length === 0;
    this.#noKeys.hidden = keys.length > 0;
  }

  #keyRow(view: KeyView): KeyRow {
    const existing = this.#rows.get(view.id);
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
    lift.addEventListener('click', () => this.#actions.lift(view.id));
    cells.ban.append(banText, lift);
    row.append(element('td', 'key', view.id), cells.plan, cells.remaining, cells.reset, cells.ban);
    const made = { row, ...cells, banText, lift };
    this.#rows.set(view.id, made);
    return made;
  }

  #showRecent(recent: PanelModel['recent']): void {
    const lines = recent.map((request) => {
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
    if (text !== [...this.#recentBody.rows].map((row) => row.textContent).join('\n'))
      this.#recentBody.replaceChildren(...lines);
    this.#recentTable.hidden = lines.length === 0;
    this.#noRecent.hidden = lines.length > 0;
  }
}
