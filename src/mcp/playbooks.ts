import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { PACKAGE_ROOT, readMarkdownFolder } from './package-files.js';

/**
 * The playbooks of agent/skills/ as MCP prompts, so that every MCP client gets them, not only Kiro
 * (whose agent config lists them as skill resources). The folder is read once per process: a new
 * playbook file is a new prompt at the next start, with no code change.
 */

/** Where the playbooks live, in a clone and in an installed package (package-files.ts). */
export const PLAYBOOK_DIR = join(PACKAGE_ROOT, 'agent', 'skills');

export interface Playbook {
  /** The prompt's name: the front matter's `name`, else the file name without `.md` (`create-cluster`). */
  name: string;
  /** The file's `# ` heading (`Create a HyperPod cluster`). */
  title: string;
  /** The front matter's `description` (the Kiro skill's), else the first paragraph. */
  description: string;
  path: string;
}

/**
 * Every playbook is about one cluster (creating it or working on it) and starts from what the user
 * asked: both are optional, because the playbooks themselves say how to find out (list_clusters,
 * get_active_cluster, the allowed questions).
 */
export const PLAYBOOK_ARGUMENTS = {
  cluster: z
    .string()
    .max(200)
    .optional()
    .describe(
      'The cluster this is about (for create-cluster, the new cluster’s name); left out, the playbook says how to find it.',
    ),
  request: z
    .string()
    .max(2000)
    .optional()
    .describe(
      'What the user asked for, in their words (e.g. "create a cluster with two on-demand GPU nodes in us-west-2b").',
    ),
};
/** The arguments checked at `prompts/get`, built once. */
export const PlaybookArgumentsSchema = z.object(PLAYBOOK_ARGUMENTS);
export type PlaybookArguments = z.output<typeof PlaybookArgumentsSchema>;

let playbooks: readonly Playbook[] | undefined;

/** The playbooks of {@link PLAYBOOK_DIR}, read on first use and then kept. */
export function listPlaybooks(dir = PLAYBOOK_DIR): readonly Playbook[] {
  if (dir !== PLAYBOOK_DIR) return readPlaybooks(dir);
  playbooks ??= readPlaybooks(dir);
  return playbooks;
}

function readPlaybooks(dir: string): readonly Playbook[] {
  return Object.freeze(
    readMarkdownFolder(dir).map((md) => {
      const name = md.frontMatter.name || md.file.replace(/\.md$/, '');
      return {
        name,
        title: md.heading ?? name,
        description: md.frontMatter.description || md.firstParagraph || md.heading || name,
        path: md.path,
      };
    }),
  );
}

/**
 * Registers each playbook on an McpServer with the SDK's registerPrompt. The servers this package runs
 * serve the same prompts from a list built once (content-set.ts); a test checks both list the same.
 */
export function registerPlaybookPrompts(server: McpServer, list: readonly Playbook[] = listPlaybooks()): void {
  for (const playbook of list) {
    server.registerPrompt(
      playbook.name,
      { title: playbook.title, description: playbook.description, argsSchema: PLAYBOOK_ARGUMENTS },
      (args): GetPromptResult => playbookPrompt(playbook, args),
    );
  }
}

/** The playbook's text, read at the call (an edit shows without a restart), after a preface when arguments came. */
export function playbookPrompt(playbook: Playbook, args: PlaybookArguments): GetPromptResult {
  const text = readFileSync(playbook.path, 'utf8');
  const preface = [
    args.request ? `The user asked: ${args.request}` : undefined,
    args.cluster ? `The cluster: ${args.cluster}` : undefined,
  ].filter((line) => line !== undefined);
  const intro = preface.length ? `${preface.join('\n')}\n\nFollow this playbook:\n\n` : '';
  return {
    description: playbook.description,
    messages: [{ role: 'user', content: { type: 'text', text: intro + text } }],
  };
}
