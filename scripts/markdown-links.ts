/**
 * The links of a Markdown file as GitHub renders them: the targets of its inline links, images
 * and reference definitions outside code, and the anchors its headings get. Both link tests read
 * them: the repository's (markdown-links.test.ts) and the packed tarball's (shipped-docs.test.ts).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '``');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (a repeated heading gets `-1`, `-2`...). */
function anchors(path: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of prose(readFileSync(path, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Link targets: inline `[text](target)` and `![alt](target)`, and reference definitions. */
export function links(text: string): string[] {
  const body = prose(text);
  const inline = [...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1] as string,
  );
  const references = [...body.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map(
    (m) => m[1] as string,
  );
  return [...inline, ...references];
}

/**
 * Why a link of `file` does not resolve inside `root` (it leaves it, names nothing, or a heading
 * its file lacks), or undefined when it does; links with a scheme (`https:`) are not checked.
 */
export function linkProblem(root: string, file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: ...
  const [rawPath = '', fragment] = target.split('#', 2);
  const path = decodeURI(rawPath);
  const resolved = path === '' ? file : resolve(dirname(file), path);
  const inside = relative(root, resolved);
  if (inside.startsWith('..') || inside.startsWith(sep) || resolve(root, inside) !== resolved)
    return `leaves ${root}`;
  if (!existsSync(resolved)) return 'does not exist';
  if (fragment !== undefined && resolved.endsWith('.md') && statSync(resolved).isFile()) {
    if (!anchors(resolved).has(fragment)) return `has no heading #${fragment}`;
  }
  return undefined;
}
