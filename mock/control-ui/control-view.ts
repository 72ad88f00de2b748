/**
 * The pieces both control UIs are drawn with: elements, tables of rows that are updated in place
 * (a row kept by its key, text written only where it changed), so a steady page does not touch
 * the DOM every tick and a focused button keeps its focus. Text only, through `textContent`:
 * nothing a client sent (an id, a path) can become markup.
 */
import type { Cell, Row } from './control-model.ts';

/** An element with a class and text. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className !== undefined) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A button that does `press`, with a tooltip saying what. */
export function button(
  className: string,
  text: string,
  title: string,
  press: () => void,
): HTMLButtonElement {
  const made = element('button', className, text);
  made.type = 'button';
  if (title !== '') made.title = title;
  made.addEventListener('click', press);
  return made;
}

/** Writes text only when it changed, so a steady page does not touch the DOM every tick. */
export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/** What a table's buttons do, by the button's name and its row's key. */
type Press = (name: string, key: string) => void;

/** Shows one cell in `td`: its text, its marks, a badge or a button made once. */
function showCell(td: HTMLTableCellElement, cell: Cell, key: string, press: Press): void {
  const className = [cell.className, cell.flag].filter(Boolean).join(' ');
  if (td.className !== className) td.className = className;
  if (cell.button !== undefined) {
    const { name, title, shown } = cell.button;
    if (td.childElementCount !== 2)
      td.replaceChildren(
        element('span', `${cell.className}-text`),
        button(name, name[0]?.toUpperCase() + name.slice(1), title, () => press(name, key)),
      );
    setText(td.firstChild as Node, cell.text);
    (td.lastChild as HTMLButtonElement).hidden = !shown;
  } else if (cell.badge === undefined) setText(td, cell.text);
  else if (td.textContent !== cell.badge + cell.text)
    td.replaceChildren(element('span', `badge ${cell.badge}`, cell.badge), cell.text);
}

/**
 * A table of rows, or a line saying there are none, in one element of class and id `name`
 * (marked `empty` while it has no rows). A row is kept by its key across updates, and one that
 * holds the focus stays until the focus leaves it.
 */
export class RowTable {
  readonly element: HTMLElement;
  readonly #table = element('table');
  readonly #body = element('tbody');
  readonly #empty: HTMLParagraphElement;
  readonly #emptyText: string;
  readonly #rows = new Map<string, HTMLTableRowElement>();
  readonly #press: Press;

  constructor(name: string, head: readonly string[], emptyText: string, press: Press = () => {}) {
    this.element = element('div', name);
    this.element.id = name;
    this.#empty = element('p', `empty no-${name}`, '...');
    this.#emptyText = emptyText;
    this.#press = press;
    if (head.length > 0) {
      const tr = element('tr');
      for (const name of head) tr.append(element('th', undefined, name));
      this.#table.append(element('thead'), this.#body);
      this.#table.tHead?.append(tr);
    } else this.#table.append(this.#body);
    this.element.append(this.#empty);
  }

  /** Shows `rows`, in their order. */
  show(rows: readonly Row[]): void {
    if (!this.#table.isConnected) this.element.prepend(this.#table);
    const seen = new Set<string>();
    rows.forEach((row, index) => {
      seen.add(row.key);
      let tr = this.#rows.get(row.key);
      if (tr === undefined) {
        tr = element('tr');
        tr.dataset.key = row.key;
        this.#rows.set(row.key, tr);
      }
      if (this.#body.rows[index] !== tr)
        this.#body.insertBefore(tr, this.#body.rows[index] ?? null);
      while (tr.cells.length > row.cells.length) tr.lastChild?.remove();
      row.cells.forEach((cell, at) => {
        const td = tr.cells[at] ?? tr.appendChild(element('td'));
        showCell(td, cell, row.key, this.#press);
      });
    });
    for (const [key, tr] of this.#rows) {
      if (seen.has(key)) continue;
      const root = tr.getRootNode() as Document | ShadowRoot;
      if (tr.contains(root.activeElement)) continue;
      tr.remove();
      this.#rows.delete(key);
    }
    setText(this.#empty, this.#emptyText);
    this.#table.hidden = rows.length === 0;
    this.#empty.hidden = rows.length > 0;
    this.element.classList.toggle('empty', rows.length === 0);
  }
}

/** What a mounted UI does with its readings and its actions' outcomes. */
export interface LiveViewOf<Reading> {
  /** Reads the fake once. */
  read(): Promise<Reading>;
  /** Shows a reading: a new one (`fresh`), or the last one again as time runs on (`tickMs`). */
  show(reading: Reading, fresh: boolean): void;
  /** Says what an action did. */
  say(text: string): void;
  /** Says why a reading (`reading`) or an action failed. */
  failed(error: unknown, reading: boolean): void;
}

/**
 * One mounted control UI's life: the fake's last reading, read again on a timer while the page
 * is seen, shown (and shown again between reads, so countdowns run), and the buttons' actions,
 * after which the fake is read again.
 */
export class LiveView<Reading> {
  readonly #of: LiveViewOf<Reading>;
  readonly #timers: ReturnType<typeof setInterval>[] = [];
  readonly #onVisible = () => {
    if (!document.hidden) void this.refresh();
  };
  #reading: Reading | undefined;
  #reads = 0;

  constructor(of: LiveViewOf<Reading>) {
    this.#of = of;
  }

  /** The last reading, if any. */
  get reading(): Reading | undefined {
    return this.#reading;
  }

  /** Reads the fake now and shows it; resolves once shown (or said why not). */
  refresh = async (): Promise<void> => {
    const read = ++this.#reads;
    try {
      const next = await this.#of.read();
      // An older read that settles after a newer one must not show the past.
      if (read !== this.#reads) return;
      this.#reading = next;
      this.#of.show(next, true);
    } catch (error) {
      this.#of.failed(error, true);
    }
  };

  /** Runs a button's action, says what it did or why not, then shows the fake as it is now. */
  async act(action: () => unknown): Promise<void> {
    try {
      const said = await action();
      if (typeof said === 'string') this.#of.say(said);
    } catch (error) {
      this.#of.failed(error, false);
    }
    await this.refresh();
  }

  /** Reads now, then every `refreshMs` while the page is seen; shows again every `tickMs`. */
  start(refreshMs: number, tickMs?: number): void {
    this.#timers.push(setInterval(this.#onVisible, refreshMs));
    if (tickMs !== undefined)
      this.#timers.push(
        setInterval(() => {
          if (this.#reading !== undefined) this.#of.show(this.#reading, false);
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
