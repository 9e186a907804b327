import { requiredScope, takesIdempotencyKey } from './route.js';
import { z } from 'zod';
import type { AnyRouteSpec } from './route.js';

const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  errors: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('One entry per field at fault.'),
  code: z.string().optional().describe("The cloud's own error code, when the cloud refused."),
  remedy: z.string().optional(),
  operation: z
    .object({
      id: z.string(),
      kind: z.string(),
      status: z.string(),
      target: z.string(),
      statusUrl: z.string(),
      statusTool: z.string(),
    })
    .optional()
    .describe(
      'On a 409 because another operation is running and holds what this request needs: that operation. Wait for it (statusTool / statusUrl), then send the request again.',
    ),
});

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const s = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete s.$schema;
  return s;
}

/** Path/query parameters of an object schema as OpenAPI parameter objects. */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): unknown[] {
  if (!schema) return [];
  const js = jsonSchema(schema, 'input') as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (js.required ?? []).includes(name),
    description: s.description,
    schema: s,
  }));
}

/** The OpenAPI 3.1 document of every registered route, from the same zod schemas that validate them. */
export function buildOpenApi(routes: AnyRouteSpec[], info: { version: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, resp] of Object.entries(r.responses)) {
      responses[status] = {
        description: resp.description,
        ...(resp.schema ? { content: { 'application/json': { schema: jsonSchema(resp.schema, 'output') } } } : {}),
      };
    }
    const problem = { content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
    responses['4XX'] = {
      description:
        'Problem: the request was refused (bad input 400, no or wrong token 401, foreign Host/Origin or a token whose scope is too small 403, unknown 404, conflict 409, precondition 422)',
      ...problem,
    };
    responses['5XX'] = {
      description:
        'Problem: the cloud failed (502), the server cannot act now (503: throttled, no usable credentials, data directory not writable — see `remedy`), or the cloud did not answer in time (504)',
      ...problem,
    };
    const params = [...parameters(r.params, 'path'), ...parameters(r.query, 'query')];
    if (takesIdempotencyKey(r)) {
      params.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', maxLength: 200 },
        description:
          'Repeat the same request safely: the same key with the same request answers the first answer (an operation as it is now), ' +
          'sent with `Idempotent-Replayed: true`; the same key with another request is 409 naming Idempotency-Key (docs/API.md → Idempotency-Key).',
      });
    }
    (paths[r.url] ??= {})[r.method.toLowerCase()] = {
      operationId: r.operationId,
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      tags: r.tags,
      // The token scope the route needs (OpenAPI 3.1 lets any scheme list role names): read, operate or admin.
      security: [{ bearer: [requiredScope(r)] }],
      ...(params.length ? { parameters: params } : {}),
      ...(r.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(r.body, 'input') } } } }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'InstantStart API',
      version: info.version,
      description:
        'Control plane for Amazon SageMaker HyperPod clusters on Amazon EKS. Mutations answer 202 with an operation; poll its statusUrl until it is terminal.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: { Problem: jsonSchema(ProblemSchema, 'output') },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API token, when the server has any (serve --token: admin, --operate-token, --read-token). Each operation lists the ' +
            'smallest scope it needs: read < operate < admin; a smaller one is 403 (docs/SECURITY.md → Token scopes).',
        },
      },
    },
  };
}
