/**
 * Reads the fenced code blocks of a Markdown file by section, so that tests run the commands and
 * examples the documentation shows, exactly as written.
 */

/** One fenced code block: its language tag, its text and the heading it sits under. */
export interface FencedBlock {
  readonly lang: string;
  readonly text: string;
  /** The nearest heading above the block, without its `#`s. */
  readonly heading: string;
}

/**
 * The part of `markdown` under `heading` (`## Name` or `### Name`, matched exactly), up to the
 * next heading of the same or a higher level. Throws when there is no such heading, so a renamed
 * section fails the test that reads it instead of testing nothing.
 */
export function markdownSection(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  // A `#` line inside a fence (a shell comment) is not a heading.
  let fenced = false;
  const levels = lines.map((line) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    return fenced ? 0 : (/^(#+) /.exec(line)?.[1]?.length ?? 0);
  });
  const start = lines.findIndex(
    (line, index) => (levels[index] ?? 0) > 0 && line.replace(/^#+ /, '') === heading,
  );
  if (start === -1) throw new Error(`markdown-blocks: no heading "${heading}"`);
  const level = levels[start] ?? 1;
  const end = levels.findIndex((other, index) => index > start && other > 0 && other <= level);
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
}

/** Every fenced code block of `markdown`, in order. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let heading = '';
  let open: { lang: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    if (open) {
      if (/^\s*```\s*$/.test(line)) {
        blocks.push({ lang: open.lang, text: open.lines.join('\n'), heading });
        open = undefined;
      } else open.lines.push(line);
    } else if (/^\s*```/.test(line)) {
      open = { lang: line.trim().slice(3).trim(), lines: [] };
    } else if (/^#+ /.test(line)) {
      heading = line.replace(/^#+ /, '');
    }
  }
  return blocks;
}

/** The `// path` on the first line of an example block, if it names a file. */
export function exampleFileName(block: FencedBlock): string | undefined {
  return /^\/\/ ([\w./-]+\.[cm]?[jt]sx?)$/.exec(block.text.split('\n')[0] ?? '')?.[1];
}
