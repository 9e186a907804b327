import { REF, type Schema } from './schema/walk.js';

/**
 * `/openapi/v2`. As JSON: Swagger 2.0 converted from the OpenAPI 3.0 documents: request bodies become `body`
 * parameters, response content becomes `schema` + `produces`, parameters carry their type
 * directly, and schema keywords Swagger 2.0 lacks (`anyOf`, `oneOf`, `not`, `nullable`) are dropped,
 * int-or-string values becoming `type: string, format: int-or-string` as the API server writes them.
 */

function schemaV2(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(schemaV2);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { anyOf, oneOf, not, nullable, ...rest } = schema as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(rest)) {
    // `enum`, `default` and `example` are values, not schemas.
    out[key] = ['enum', 'default', 'example'].includes(key) ? value : schemaV2(value);
  }
  if (out['x-kubernetes-int-or-string'] && out.type === undefined)
    Object.assign(out, { type: 'string', format: 'int-or-string' });
  else if (out.type === undefined && Array.isArray(anyOf) && anyOf.some((b: Schema) => b.type === 'string'))
    out.type = 'string';
  return out;
}

function parameterV2(p: Schema): Schema {
  const { schema, ...rest } = p;
  return { ...rest, ...(schema as Schema) };
}

function operationV2(op: Schema): Schema {
  const { requestBody, responses, parameters, ...rest } = op;
  const out: Schema = { ...rest, schemes: ['https'], parameters: ((parameters ?? []) as Schema[]).map(parameterV2) };
  if (requestBody) {
    const content = requestBody.content as Record<string, { schema: Schema }>;
    out.consumes = Object.keys(content);
    out.parameters.push({ name: 'body', in: 'body', required: true, schema: Object.values(content)[0]!.schema });
  } else {
    out.consumes = ['*/*'];
  }
  const produces = new Set<string>();
  out.responses = Object.fromEntries(
    Object.entries((responses ?? {}) as Record<string, Schema>).map(([code, r]) => {
      const content = (r.content ?? {}) as Record<string, { schema: Schema }>;
      Object.keys(content).forEach((t) => produces.add(t));
      const first = Object.values(content)[0];
      return [code, { description: r.description, ...(first ? { schema: first.schema } : {}) }];
    }),
  );
  out.produces = [...produces];
  return out;
}

export function toSwagger2(v3: Schema): Schema {
  const doc = JSON.parse(JSON.stringify(v3).replaceAll(`"${REF}`, '"#/definitions/')) as Schema;
  const paths: Record<string, Schema> = {};
  for (const [path, item] of Object.entries(doc.paths as Record<string, Schema>)) {
    paths[path] = Object.fromEntries(
      Object.entries(item).map(([key, value]) => [
        key,
        key === 'parameters' ? (value as Schema[]).map(parameterV2) : operationV2(value as Schema),
      ]),
    );
  }
  return {
    swagger: '2.0',
    info: doc.info,
    paths,
    definitions: schemaV2(doc.components.schemas),
    securityDefinitions: doc.components.securitySchemes,
    security: doc.security,
  };
}

/** How kubectl asks for it; the answer is labelled with the dotted form, the `@` one not being a parsable media type. */
export const PROTOBUF_V2_ACCEPT = [
  'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
  'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
];
export const PROTOBUF_V2 = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

function field(number: number, payload: Buffer): Buffer {
  return Buffer.concat([varint((number << 3) | 2), varint(payload.length), payload]);
}

function varint(n: number): Buffer {
  const bytes: number[] = [];
  for (let v = n; ; v >>>= 7) {
    if (v < 0x80) {
      bytes.push(v);
      return Buffer.from(bytes);
    }
    bytes.push((v & 0x7f) | 0x80);
  }
}

/**
 * The protobuf encoding kubectl asks for (a gnostic `openapi.v2.Document`), reduced to its header
 * with empty paths and definitions. kubectl reads v2 only where v3 does not serve it (client-side
 * validation of `kind: List` files, kinds absent from the v3 documents); finding no schema there,
 * it skips its own check and the server validates, with the same outcome for valid objects.
 */
export function swaggerProtobufHeader(version: string): Buffer {
  const info = Buffer.concat([field(1, Buffer.from('Kubernetes')), field(2, Buffer.from(version))]);
  return Buffer.concat([
    field(1, Buffer.from('2.0')),
    field(2, info),
    field(8, Buffer.alloc(0)),
    field(9, Buffer.alloc(0)),
  ]);
}
