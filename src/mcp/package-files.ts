import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's own folder: this file runs as dist/src/mcp/package-files.js, three levels below it,
 * in a clone and in an installed package alike (bin/instantstart.mjs loads dist/bin/main.js the same
 * way, and src/cli/serve.ts finds package.json so). agent/, docs/ and README.md sit next to dist/.
 */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** One Markdown file of the package, with what its own text says about it. */
export interface MarkdownFile {
  /** The file name, e.g. `MCP.md`. */
  file: string;
  path: string;
  /** The front matter's `key: value` lines (a playbook's `name` and `description`); empty when it has none. */
  frontMatter: Readonly<Record<string, string>>;
  /** The first `# ` heading, without the `#`. */
  heading: string | undefined;
  /** The first paragraph after the heading that is prose (not a heading, list, table, fence or badge). */
  firstParagraph: string | undefined;
}

/** The `.md` files of `dir` (name order), each read once; none when the folder is missing. */
export function readMarkdownFolder(dir: string): MarkdownFile[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.md'));
  } catch {
    return [];
  }
  return names.sort().map((file) => readMarkdownFile(join(dir, file)));
}

/** One Markdown file's heading, first paragraph and front matter. */
export function readMarkdownFile(path: string): MarkdownFile {
  const text = readFileSync(path, 'utf8');
  const { frontMatter, body } = splitFrontMatter(text);
  const lines = body.split('\n');
  const headingAt = lines.findIndex((line) => /^# \S/.test(line));
  const heading = headingAt >= 0 ? lines[headingAt]!.slice(2).trim() : undefined;
  return {
    file: path.slice(path.lastIndexOf('/') + 1),
    path,
    frontMatter,
    heading,
    firstParagraph: firstProse(lines.slice(headingAt + 1)),
  };
}

/**
 * A playbook's front matter is the Kiro skill header: `---`, one `key: value` per line, `---`. Only
 * flat one-line values are read (the only kind the playbooks use), so no YAML parser is needed here.
 */
function splitFrontMatter(text: string): { frontMatter: Record<string, string>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!match) return { frontMatter: {}, body: text };
  const frontMatter: Record<string, string> = {};
  for (const line of match[1]!.split('\n')) {
    const pair = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (pair) frontMatter[pair[1]!] = pair[2]!.trim();
  }
  return { frontMatter, body: text.slice(match[0].length) };
}

function firstProse(lines: string[]): string | undefined {
  const paragraph: string[] = [];
  let inFence = false;
  for (const line of lines) {
    if (line.startsWith('```')) inFence = !inFence;
    if (inFence || line.startsWith('```')) {
      if (paragraph.length) break;
      continue;
    }
    const trimmed = line.trim();
    const prose = trimmed !== '' && !/^(#|[-*|>]|\d+\.|!\[|\[!\[|<)/.test(trimmed);
    if (prose) paragraph.push(trimmed);
    else if (paragraph.length) break;
  }
  return paragraph.length ? paragraph.join(' ') : undefined;
}
