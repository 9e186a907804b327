import { createHash } from 'node:crypto';
import type { KubeCluster } from '../cluster.js';
import type { ResourceType } from '../types.js';
import type { SimpleResponse } from './http.js';
import { resourcePaths } from './openapi-paths.js';
import { PROTOBUF_V2, PROTOBUF_V2_ACCEPT, swaggerProtobufHeader, toSwagger2 } from './openapi-v2.js';
import { builtinCatalog, builtinSchemaName } from './schema/builtin-schemas.js';
import { customSchemaName, publishedCustomSchemas } from './schema/crd-schemas.js';
import type { Schema } from './schema/walk.js';

/**
 * `/openapi/v3` (the index of group/version documents, each URL carrying the hash of its content),
 * `/openapi/v3/api/v1`, `/openapi/v3/apis/<group>/<version>` (OpenAPI 3.0: the paths of the
 * group/version's resources and the schemas they reach, kinds tagged with
 * `x-kubernetes-group-version-kind`, which `kubectl explain` looks for) and `/openapi/v2` (one
 * Swagger 2.0 document of everything). Built-in kinds' schemas are generated from client-node's
 * models (field documentation included); custom resources' from their CRDs. Documents of built-in
 * group/versions never change and are built once. kubectl asks for `/openapi/v2` in protobuf; it
 * gets the document's header only (see openapi-v2.ts).
 */

const gvKey = (t: Pick<ResourceType, 'group' | 'version'>) =>
  t.group ? `apis/${t.group}/${t.version}` : `api/${t.version}`;
const builtinDocuments = new Map<string, { text: string; hash: string }>();

const hashOf = (text: string) => createHash('sha512').update(text).digest('hex').toUpperCase();

export function openApiDocument(cluster: KubeCluster, path: string, accept: string): SimpleResponse | undefined {
  const types = cluster.types();
  if (path === '/openapi/v2') return swagger(cluster, types, accept);
  if (path === '/openapi/v3') {
    const keys = [...new Set(types.map(gvKey))];
    const paths = Object.fromEntries(
      keys.map((key) => [
        key,
        { serverRelativeURL: `/openapi/v3/${key}?hash=${gvDocument(cluster, types, key)!.hash}` },
      ]),
    );
    return respond(JSON.stringify({ paths }));
  }
  const key = /^\/openapi\/v3\/(api\/[^/]+|apis\/[^/]+\/[^/]+)$/.exec(path)?.[1];
  const doc = key ? gvDocument(cluster, types, key) : undefined;
  return doc ? respond(doc.text, { etag: `"${doc.hash}"` }) : undefined;
}

function respond(text: string, headers: Record<string, string> = {}): SimpleResponse {
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-cache, private', vary: 'Accept', ...headers },
    body: text,
  };
}

function gvDocument(
  cluster: KubeCluster,
  all: ResourceType[],
  key: string,
): { text: string; hash: string } | undefined {
  const types = all.filter((t) => gvKey(t) === key);
  if (types.length === 0) return undefined;
  const builtin = types.every((t) => !t.crd);
  const cacheKey = `${cluster.kubernetesVersion ?? ''}|${key}`;
  const cached = builtin ? builtinDocuments.get(cacheKey) : undefined;
  if (cached) return cached;
  const text = JSON.stringify(document(cluster, types));
  const doc = { text, hash: hashOf(text) };
  if (builtin) builtinDocuments.set(cacheKey, doc);
  return doc;
}

/** One OpenAPI v3 document: the types' paths and every schema they reach. */
function document(cluster: KubeCluster, types: ResourceType[]): Schema {
  const own: Record<string, Schema> = {};
  const paths: Record<string, Schema> = {};
  for (const t of types) {
    let name = builtinSchemaName(t);
    if (t.crd) {
      Object.assign(own, publishedCustomSchemas(cluster, t));
      name = customSchemaName(t);
    }
    if (!name) continue;
    Object.assign(paths, resourcePaths(t, name, `${name}List`));
  }
  const builtins = builtinCatalog().schemas;
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: `v${cluster.kubernetesVersion ?? '1.35'}.0` },
    paths,
    components: {
      schemas: reachable(paths, (name) => own[name] ?? builtins[name]),
      securitySchemes: {
        BearerToken: {
          type: 'apiKey',
          description: 'Bearer Token authentication',
          name: 'authorization',
          in: 'header',
        },
      },
    },
    security: [{ BearerToken: [] }],
  };
}

/** The schemas `root` references, directly or through other schemas. */
function reachable(root: unknown, lookup: (name: string) => Schema | undefined): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const pending = [root];
  const refs = /"\$ref":"#\/components\/schemas\/([^"]+)"/g;
  while (pending.length > 0) {
    const text = JSON.stringify(pending.pop());
    for (const m of text.matchAll(refs)) {
      const name = m[1]!;
      const schema = out[name] ? undefined : lookup(name);
      if (!schema) continue;
      out[name] = schema;
      pending.push(schema);
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** `/openapi/v2` as the client asks first: JSON (Swagger 2.0) or kubectl's protobuf. */
function swagger(cluster: KubeCluster, types: ResourceType[], accept: string): SimpleResponse {
  const version = `v${cluster.kubernetesVersion ?? '1.35'}.0`;
  const first = accept
    .split(',')
    .map((e) => e.split(';')[0]!.trim())
    .find((media) => PROTOBUF_V2_ACCEPT.includes(media) || media === 'application/json' || media === '*/*');
  if (first?.includes('protobuf'))
    return {
      status: 200,
      headers: { 'content-type': PROTOBUF_V2, 'cache-control': 'no-cache, private', vary: 'Accept' },
      body: swaggerProtobufHeader(version),
    };
  return respond(JSON.stringify(toSwagger2(document(cluster, types))));
}
