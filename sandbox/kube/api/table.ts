import { badRequest } from '../errors.js';
import type { KubeObject, PrinterColumn, ResourceType } from '../types.js';
import { since } from './durations.js';
import { jsonPathValue } from './jsonpath.js';
import { BUILTIN_COLUMNS, DEFAULT_COLUMNS, NAME, col, type Column } from './table-columns.js';

/**
 * `meta.k8s.io` Table answers, which `kubectl get` asks for (Accept
 * `application/json;as=Table;v=v1;g=meta.k8s.io,…`): the server decides the columns — built-ins
 * as kube-apiserver prints them, custom resources from their CRD's additionalPrinterColumns — and
 * sends each row's metadata for `--show-labels` and `-L`.
 */

export type TableVersion = 'v1' | 'v1beta1';

export interface TableOptions {
  version: TableVersion;
  /** `includeObject`: None | Metadata (default) | Object. */
  includeObject: string | null;
}

/** The Table version an Accept header asks for (the first acceptable entry wins), or undefined for plain JSON. */
export function wantsTable(accept: string | undefined): TableVersion | undefined {
  for (const entry of (accept ?? '').split(',')) {
    const [media, ...params] = entry.split(';').map((s) => s.trim());
    if (media !== 'application/json' && media !== '*/*') continue;
    const p = Object.fromEntries(params.map((kv) => kv.split('=').map((s) => s.trim()) as [string, string]));
    if (p.as === undefined) return undefined;
    if (p.as === 'Table' && p.g === 'meta.k8s.io' && (p.v === 'v1' || p.v === 'v1beta1')) return p.v;
  }
  return undefined;
}

export function tableOptions(accept: string | undefined, query: URLSearchParams): TableOptions | undefined {
  const version = wantsTable(accept);
  if (!version) return undefined;
  const includeObject = query.get('includeObject');
  if (includeObject && !['None', 'Metadata', 'Object'].includes(includeObject)) {
    throw badRequest(
      `includeObject: Unsupported value: "${includeObject}": supported values: "Metadata", "None", "Object"`,
    );
  }
  return { version, includeObject };
}

/** A CRD version's printer columns; none declared → just Age (as the API server serves them). */
function customColumns(printerColumns: PrinterColumn[] | undefined): Column[] {
  const declared = printerColumns?.length
    ? printerColumns
    : [{ name: 'Age', type: 'date' as const, jsonPath: '.metadata.creationTimestamp' }];
  return [
    NAME,
    ...declared.map((c) => ({
      ...col(c.name, (o: KubeObject, now: number) => customCell(o, c, now), c.priority ?? 0, c.type, c.format),
      description: c.description ?? `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
    })),
  ];
}

/** One printer-column cell: the first value the path reaches, typed as the column says (null = kubectl's `<none>`). */
function customCell(o: KubeObject, c: PrinterColumn, now: number): unknown {
  const v = jsonPathValue(o, c.jsonPath);
  if (v === undefined || v === null) return null;
  switch (c.type) {
    case 'string':
      return typeof v === 'object' ? JSON.stringify(v) : String(v);
    case 'integer':
      return typeof v === 'number' ? Math.trunc(v) : null;
    case 'number':
      return typeof v === 'number' ? v : null;
    case 'boolean':
      return typeof v === 'boolean' ? v : null;
    case 'date':
      return typeof v === 'string' ? since(v, now) : null;
    default:
      return null;
  }
}

export function columnsFor(type: ResourceType): Column[] {
  if (type.crd) return customColumns(type.printerColumns);
  return BUILTIN_COLUMNS[`${type.group || 'core'}/${type.resource}`] ?? DEFAULT_COLUMNS;
}

export function toTable(
  type: ResourceType,
  objects: KubeObject[],
  now: number,
  options: TableOptions,
  listMeta: Record<string, unknown> = {},
): Record<string, unknown> {
  const columns = columnsFor(type);
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${options.version}`,
    metadata: listMeta,
    columnDefinitions: columns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description ?? '',
      priority: c.priority,
    })),
    rows: objects.map((o) => row(columns, o, now, options)),
  };
}

function row(columns: Column[], o: KubeObject, now: number, options: TableOptions): Record<string, unknown> {
  const cells = columns.map((c) => c.cell(o, now) ?? null);
  if (options.includeObject === 'None') return { cells };
  const object =
    options.includeObject === 'Object'
      ? o
      : { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${options.version}`, metadata: o.metadata };
  return { cells, object };
}
