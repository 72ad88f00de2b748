/**
 * The UTF-8 bytes of the answer bodies the door sends again and again. The core hands out the
 * same JSON text for a page it has already serialised (steps/routes/list-pets.ts), but a text
 * written to a socket is encoded on every write, and a page holding one character past Latin-1
 * is kept by V8 as UTF-16, whose encoding costs more than all of Node's own work for the
 * request. Keyed by the text itself, so a cached encoding can never be sent for a body that
 * changed.
 *
 * What it buys, side by side with encoding each body when it is sent: on the 100-pet page, which
 * holds such a character, a large share of the fake's CPU a request; on the page of 20, a pet and
 * a create, nothing beyond the noise (bench/optimisations.md, "The structures built for the
 * bench").
 */

/** Bodies shorter than this are written as text: Node joins them to the head in one write. */
const shortestEncoded = 512;
/** Longer bodies are not kept: they are rare (control-surface dumps) and would hold memory. */
const longestEncoded = 64 * 1024;
/** How many encodings are kept; the oldest is dropped first. */
const entries = 16;

/** A door's recent bodies and their bytes. */
export class EncodedBodies {
  readonly #bytes = new Map<string, Buffer>();

  /** What to write for `text`: the text itself when short, else its UTF-8 bytes, reused. */
  encode(text: string): string | Buffer {
    if (text.length < shortestEncoded || text.length > longestEncoded) return text;
    let bytes = this.#bytes.get(text);
    if (bytes === undefined) {
      bytes = Buffer.from(text, 'utf8');
      if (this.#bytes.size >= entries) {
        const oldest = this.#bytes.keys().next().value as string;
        this.#bytes.delete(oldest);
      }
      this.#bytes.set(text, bytes);
    }
    return bytes;
  }
}
