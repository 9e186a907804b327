import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { LogLine } from '../domain/schemas/operations.js';
import { PACKAGE_ROOT, readMarkdownFile, readMarkdownFolder } from './package-files.js';
import type { RestClient } from './rest-client.js';

/**
 * What an agent may read besides calling tools: the docs, the OpenAPI document and operation logs.
 * The docs are the package's own files; the OpenAPI document and the logs are read through the REST
 * API with the caller's token, as the tools are: the MCP server lends no privileges of its own.
 */

export const DOC_URI_PREFIX = 'instantstart://docs/';
export const OPENAPI_URI = 'instantstart://openapi.json';
export const OPERATION_LOG_TEMPLATE = 'instantstart://operations/{id}/log';
/** The same log from a line on: the URI the last line of a page names. */
export const OPERATION_LOG_PAGE_TEMPLATE = 'instantstart://operations/{id}/log{?after}';
/** Lines per read of an operation log: one page stays well inside a model's context. */
export const LOG_PAGE_LINES = 500;

export interface DocFile {
  /** The file name, which is also the URI's last segment: `instantstart://docs/MCP.md`. */
  file: string;
  title: string;
  description: string | undefined;
  path: string;
}

let docs: readonly DocFile[] | undefined;

/** README.md and docs/*.md of the package, read on first use and then kept (a new doc appears at the next start). */
export function listDocs(): readonly DocFile[] {
  docs ??= Object.freeze(
    [readMarkdownFile(join(PACKAGE_ROOT, 'README.md')), ...readMarkdownFolder(join(PACKAGE_ROOT, 'docs'))].map(
      (md) => ({
        file: md.file,
        title: md.heading ?? md.file,
        description: md.firstParagraph && shorten(md.firstParagraph, 240),
        path: md.path,
      }),
    ),
  );
  return docs;
}

/** A resource with a fixed URI; `read` gets the caller's REST client. */
export interface FixedResource {
  uri: string;
  name: string;
  title: string;
  description?: string;
  mimeType: string;
  read(api: RestClient, signal: AbortSignal): Promise<string> | string;
}

/** A resource template (RFC 6570, as the SDK's ResourceTemplate matches it); `read` gets the URI's variables. */
export interface TemplateResource {
  name: string;
  uriTemplate: string;
  title: string;
  description: string;
  mimeType: string;
  read(api: RestClient, variables: Record<string, string | string[]>, signal: AbortSignal): Promise<string>;
}

/** The docs (README.md first, then docs/*.md) and the OpenAPI document. */
export function fixedResources(): FixedResource[] {
  const docResources = listDocs().map(
    (doc): FixedResource => ({
      uri: DOC_URI_PREFIX + doc.file,
      name: `doc-${doc.file.replace(/\.md$/, '').toLowerCase()}`,
      title: doc.title,
      ...(doc.description ? { description: doc.description } : {}),
      mimeType: 'text/markdown',
      read: () => readFileSync(doc.path, 'utf8'),
    }),
  );
  return [
    ...docResources,
    {
      uri: OPENAPI_URI,
      name: 'openapi',
      title: 'InstantStart REST API (OpenAPI 3)',
      description: 'Every REST route the tools call, with request and answer schemas (GET /api/openapi.json).',
      mimeType: 'application/json',
      read: async (api, signal) => JSON.stringify(await api.get('/api/openapi.json', { signal })),
    },
  ];
}

/**
 * An operation's log, and the same from a line on (the URI each page's last line names): the SDK's
 * template matching needs the query in the template to read `after`, so the pages are a second template.
 */
export function templateResources(): TemplateResource[] {
  const read: TemplateResource['read'] = (api, variables, signal) => {
    const after = Number(variables.after ?? 0);
    return operationLogPage(api, String(variables.id), Number.isSafeInteger(after) && after >= 0 ? after : 0, signal);
  };
  return [
    {
      name: 'operation-log',
      uriTemplate: OPERATION_LOG_TEMPLATE,
      title: "An operation's log",
      description: `An operation's log lines, oldest first, ${LOG_PAGE_LINES} at most; the last line names the URI that reads on. Ids come from list_operations or a mutating tool's answer.`,
      mimeType: 'text/plain',
      read,
    },
    {
      name: 'operation-log-page',
      uriTemplate: OPERATION_LOG_PAGE_TEMPLATE,
      title: "An operation's log, after a line",
      description: `The lines after line \`after\` (the number the previous page's last line gives), ${LOG_PAGE_LINES} at most.`,
      mimeType: 'text/plain',
      read,
    },
  ];
}

/**
 * Registers the same resources on an McpServer with the SDK's registerResource and ResourceTemplate.
 * The servers this package runs serve them from lists built once (content-set.ts); a test checks both
 * list and read the same.
 */
export function registerResources(server: McpServer, api: RestClient): void {
  for (const { uri, name, read, ...metadata } of fixedResources()) {
    server.registerResource(
      name,
      uri,
      metadata,
      async (_uri, extra): Promise<ReadResourceResult> => ({
        contents: [{ uri, mimeType: metadata.mimeType, text: await read(api, extra.signal) }],
      }),
    );
  }
  for (const { uriTemplate, name, read, ...metadata } of templateResources()) {
    server.registerResource(
      name,
      new ResourceTemplate(uriTemplate, { list: undefined }),
      metadata,
      async (uri, variables, extra): Promise<ReadResourceResult> => ({
        contents: [{ uri: uri.href, mimeType: metadata.mimeType, text: await read(api, variables, extra.signal) }],
      }),
    );
  }
}

/**
 * One page of an operation's log (REST `GET /api/v1/operations/{id}/events`), one line per event as
 * get_operation_logs writes them, and a last line that says how to read on.
 */
async function operationLogPage(api: RestClient, id: string, after: number, signal: AbortSignal): Promise<string> {
  const page = await api.get<{ lines: LogLine[]; nextAfter: number }>(
    `/api/v1/operations/${encodeURIComponent(id)}/events`,
    { query: { after, limit: LOG_PAGE_LINES }, signal },
  );
  const body = page.lines.map((l) => `${l.at} ${l.level.toUpperCase()}${l.phase ? ` [${l.phase}]` : ''} ${l.message}`);
  const next = `instantstart://operations/${encodeURIComponent(id)}/log?after=${page.nextAfter}`;
  const last =
    page.lines.length >= LOG_PAGE_LINES
      ? `(more follows: read ${next})`
      : `(end of the log for now; read ${next} later for lines that follow)`;
  return [...(page.lines.length ? body : ['(no log lines after that point)']), last].join('\n');
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2))}…`;
}
