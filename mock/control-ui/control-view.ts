/**
 * The pieces both control UIs are drawn with: tables of rows updated in place (a row kept by its
 * key, text written only where it changed), so a focused button keeps its focus. Text only,
 * through `textContent`: nothing a client sent (an id, a path) can become markup.
 */
import type { Cell, Row } from './control-model.ts';

/** An element with a class and text. */
function element<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = '') {
  return Object.assign(document.createElement(tag), { className, textContent: text });
}

/** Writes text only when it changed, so a steady page does not touch the DOM every tick. */
export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/** Shows one cell in `td`: its text, its marks, a badge or a button made once. */
function showCell(td: HTMLTableCellElement, cell: Cell): void {
  if (td.className !== (cell.className ?? '')) td.className = cell.className ?? '';
  if (cell.button !== undefined) {
    const { name, title, shown } = cell.button;
    if (td.childElementCount !== 2) {
      const pressed = element('button', name, name[0]?.toUpperCase() + name.slice(1));
      Object.assign(pressed, { type: 'button', title });
      td.replaceChildren(element('span', `${td.classList[0]}-text`), pressed);
    }
    setText(td.firstChild as Node, cell.text);
    (td.lastChild as HTMLButtonElement).hidden = !shown;
  } else if (cell.badge === undefined) setText(td, cell.text);
  else if (td.textContent !== cell.badge + cell.text)
    td.replaceChildren(element('span', `badge ${cell.badge}`, cell.badge), cell.text);
}

/**
 * Runs the action a pressed button names by its id or first class, with the key of the row it
 * is in (a table's Lift): one listener for every button of a mount, rows made later included.
 */
export function onPress(root: Node, actions: Record<string, (key: string) => void>): void {
  root.addEventListener('click', (event) => {
    const pressed = (event.target as Element).closest('button');
    const name = pressed?.id || pressed?.classList[0];
    if (name !== undefined && Object.hasOwn(actions, name))
      actions[name]?.(pressed?.closest('tr')?.dataset.key ?? '');
  });
}

/** The place of a RowTable in a mount's markup: its id, its column heads and what it says when empty. */
export function rowsPlace(id: string, head: string, empty: string): string {
  return `<div id="${id}" class="${id}" data-head="${head}" data-empty="${empty}"></div>`;
}

/**
 * A table of rows, or a line saying there are none, in its place `host` (rowsPlace; marked
 * `empty` while it has none). A row that holds the focus stays until the focus leaves it.
 */
export class RowTable {
  readonly #host: HTMLElement;
  readonly #table = element('table');
  readonly #body = element('tbody');
  readonly #empty: HTMLParagraphElement;
  readonly #rows = new Map<string, HTMLTableRowElement>();

  constructor(host: HTMLElement) {
    this.#host = host;
    this.#empty = element('p', `empty no-${host.id}`, '...');
    const head = element('tr');
    for (const name of host.dataset.head ? host.dataset.head.split(',') : [])
      head.append(element('th', '', name));
    if (head.cells.length > 0) this.#table.createTHead().append(head);
    this.#table.append(this.#body);
    host.append(this.#empty);
  }

  /** Shows `rows`, in their order. */
  show(rows: readonly Row[]): void {
    if (!this.#table.isConnected) this.#host.prepend(this.#table);
    const seen = new Set<string>();
    rows.forEach((row, index) => {
      const key = row.key ?? `#${index}`;
      seen.add(key);
      let tr = this.#rows.get(key);
      if (tr === undefined) {
        tr = element('tr');
        if (row.key !== undefined) tr.dataset.key = row.key;
        this.#rows.set(key, tr);
      }
      if (this.#body.rows[index] !== tr)
        this.#body.insertBefore(tr, this.#body.rows[index] ?? null);
      while (tr.cells.length > row.cells.length) tr.lastChild?.remove();
      row.cells.forEach((cell, at) => {
        const td = tr.cells[at] ?? tr.appendChild(element('td'));
        showCell(td, cell);
      });
    });
    for (const [key, tr] of this.#rows) {
      if (seen.has(key)) continue;
      const root = tr.getRootNode() as Document | ShadowRoot;
      if (tr.contains(root.activeElement)) continue;
      tr.remove();
      this.#rows.delete(key);
    }
    setText(this.#empty, this.#host.dataset.empty ?? '');
    this.#table.hidden = rows.length === 0;
    this.#empty.hidden = rows.length > 0;
    this.#host.classList.toggle('empty', rows.length === 0);
  }
}

/**
 * One mounted control UI's life: the fake read on a timer while the page is seen and shown (again
 * between reads, `fresh` false, so countdowns run), and the buttons' actions, after which it is
 * read again; `failed` is told whether a reading or an action failed.
 */
export class LiveView<Reading> {
  readonly #read: () => Promise<Reading>;
  readonly #show: (reading: Reading, fresh: boolean) => void;
  readonly #failed: (error: unknown, reading: boolean) => void;
  readonly #timers: ReturnType<typeof setInterval>[] = [];
  readonly #onVisible = () => {
    if (!document.hidden) void this.refresh();
  };
  #reading: Reading | undefined;
  #reads = 0;

  constructor(
    read: () => Promise<Reading>,
    show: (reading: Reading, fresh: boolean) => void,
    failed: (error: unknown, reading: boolean) => void,
  ) {
    this.#read = read;
    this.#show = show;
    this.#failed = failed;
  }

  /** The last reading, if any. */
  get reading(): Reading | undefined {
    return this.#reading;
  }

  /** Reads the fake now and shows it; resolves once shown (or said why not). */
  refresh = async (): Promise<void> => {
    const read = ++this.#reads;
    try {
      const next = await this.#read();
      // An older read that settles after a newer one must not show the past.
      if (read !== this.#reads) return;
      this.#reading = next;
      this.#show(next, true);
    } catch (error) {
      this.#failed(error, true);
    }
  };

  /** Runs a button's action, says why it failed if it did, then shows the fake as it is now. */
  async act(action: () => unknown): Promise<void> {
    try {
      await action();
    } catch (error) {
      this.#failed(error, false);
    }
    await this.refresh();
  }

  /** Reads now, then every `refreshMs` while the page is seen; shows again every `tickMs`. */
  start(refreshMs: number, tickMs?: number): void {
    this.#timers.push(setInterval(this.#onVisible, refreshMs));
    if (tickMs !== undefined)
      this.#timers.push(
        setInterval(() => {
          if (this.#reading !== undefined) this.#show(this.#reading, false);
        }, tickMs),
      );
    document.addEventListener('visibilitychange', this.#onVisible);
    void this.refresh();
  }

  /** Stops reading the fake. */
  stop(): void {
    for (const timer of this.#timers) clearInterval(timer);
    document.removeEventListener('visibilitychange', this.#onVisible);
  }
}
