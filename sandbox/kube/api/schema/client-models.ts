import { readFileSync } from 'node:fs';
import * as generated from '@kubernetes/client-node/dist/gen/models/all.js';

/**
 * The model classes of @kubernetes/client-node, read as data. Each class carries an
 * `attributeTypeMap` (field, wire name, TypeScript-ish type, format); its declaration file next to
 * it marks required fields (no `?`) and carries the API's field documentation as comments. The
 * sandbox builds its OpenAPI schemas from these, so they follow the API version of the client the
 * product itself uses.
 */

export interface ModelField {
  /** The name on the wire (`x-kubernetes-preserve-unknown-fields`, `containers`). */
  wireName: string;
  /** client-node's type name: `string`, `number`, `Array<V1Container>`, `{ [key: string]: string; }`, `V1PodSpec`, … */
  type: string;
  format: string;
  required: boolean;
  description?: string;
}

export interface Model {
  name: string;
  description?: string;
  fields: ModelField[];
}

interface Attribute {
  name: string;
  baseName: string;
  type: string;
  format: string;
}

const classes = generated as unknown as Record<string, { attributeTypeMap?: Attribute[] } | undefined>;
const cache = new Map<string, Model | undefined>();

export const isModel = (name: string): boolean => Array.isArray(classes[name]?.attributeTypeMap);

/** One model by class name (`V1PodSpec`), or undefined when client-node has no such class. */
export function model(name: string): Model | undefined {
  if (cache.has(name)) return cache.get(name);
  const attributes = classes[name]?.attributeTypeMap;
  let result: Model | undefined;
  if (Array.isArray(attributes)) {
    const docs = declarationDocs(name);
    result = {
      name,
      ...(docs.description ? { description: docs.description } : {}),
      fields: attributes.map((a) => {
        const doc = docs.fields.get(a.name);
        return {
          wireName: a.baseName,
          type: a.type,
          format: a.format,
          required: doc?.required ?? false,
          ...(doc?.description ? { description: doc.description } : {}),
        };
      }),
    };
  }
  cache.set(name, result);
  return result;
}

interface Docs {
  description?: string;
  fields: Map<string, { required: boolean; description?: string }>;
}

/**
 * Reads `<Class>.d.ts`: `'containers': Array<V1Container>;` is required, `'affinity'?: …` is not,
 * and a `/** … *\/` comment right before a field documents it. Without the file (a trimmed
 * install) fields are optional and undocumented, nothing worse.
 */
function declarationDocs(name: string): Docs {
  let text: string;
  try {
    text = readFileSync(new URL(`./${name}.d.ts`, modelsDirectory()), 'utf8');
  } catch {
    return { fields: new Map() };
  }
  const start = text.indexOf(`export declare class ${name} `);
  if (start < 0) return { fields: new Map() };
  const header = text.slice(0, start);
  const classComment = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*$/.exec(header);
  const body = text.slice(start);
  const fields = new Map<string, { required: boolean; description?: string }>();
  const field = /(?:\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*)?'([^']+)'(\?)?:/g;
  for (let m = field.exec(body); m; m = field.exec(body)) {
    const description = m[1] ? commentText(m[1]) : undefined;
    fields.set(m[2]!, { required: !m[3], ...(description ? { description } : {}) });
  }
  const description = classComment ? commentText(classComment[1]!) : undefined;
  return { ...(description ? { description } : {}), fields };
}

let directory: URL | undefined;
function modelsDirectory(): URL {
  directory ??= new URL('./', import.meta.resolve('@kubernetes/client-node/dist/gen/models/all.js'));
  return directory;
}

function commentText(raw: string): string {
  return raw
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trim())
    .filter(Boolean)
    .join(' ')
    .replace(/\\(["'`\\])/g, '$1');
}
