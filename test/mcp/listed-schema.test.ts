import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import { firstSentence, listedInputSchema, listedOutputSchema } from '../../src/mcp/listed-schema.js';

/** As the tool set turns a tool's zod schemas into JSON Schema (src/mcp/tool-set.ts). */
const jsonOf = (schema: z.ZodObject, pipeStrategy: 'input' | 'output') =>
  toJsonSchemaCompat(schema, { strictUnions: true, pipeStrategy }) as Record<string, unknown>;

describe('the schemas tools/list sends', () => {
  const Answer = z
    .object({
      name: z.string().describe('The name.'),
      count: z.number().int(),
      ratio: z.number().nullable(),
      state: z.enum(['on', 'off']),
      detail: z.object({ deep: z.object({ deeper: z.string() }).strict() }).strict(),
      items: z.array(z.object({ id: z.string() }).strict()),
      either: z.union([z.string(), z.object({ a: z.string() }).strict()]),
      anything: z.unknown(),
      optional: z.string().optional(),
    })
    .strict();

  it('lists an answer as its top-level properties with their JSON types, and nothing required', () => {
    assert.deepEqual(listedOutputSchema(jsonOf(Answer, 'output')), {
      type: 'object',
      properties: {
        name: { type: 'string' },
        count: { type: 'integer' },
        ratio: { type: ['number', 'null'] },
        state: { type: 'string' },
        detail: { type: 'object' },
        items: { type: 'array' },
        either: { type: ['string', 'object'] },
        anything: { type: ['string', 'number', 'boolean', 'object', 'array', 'null'] },
        optional: { type: 'string' },
      },
    });
  });

  it('lists answer shapes every answer of the full schema validates against (the client checks structuredContent)', () => {
    const validate = new AjvJsonSchemaValidator().getValidator(listedOutputSchema(jsonOf(Answer, 'output')));
    const answers = [
      {
        name: 'a',
        count: 1,
        ratio: null,
        state: 'on',
        detail: { deep: { deeper: 'x' } },
        items: [],
        either: 's',
        anything: 3,
      },
      {
        name: 'b',
        count: 2,
        ratio: 0.5,
        state: 'off',
        detail: { deep: { deeper: '' } },
        items: [{ id: '1' }],
        either: { a: 'x' },
        anything: null,
        optional: 'o',
      },
    ];
    for (const answer of answers) {
      Answer.parse(answer);
      assert.equal(validate(answer).valid, true, JSON.stringify(answer));
    }
    assert.equal(validate({ name: 1 }).valid, false, 'a wrong top-level type is still caught');
  });

  it("lists a tool's fields and their fields, typed, with the top-level descriptions' first sentence", () => {
    const Input = z
      .object({
        name: z
          .string()
          .regex(/^[a-z]+$/)
          .min(1)
          .max(63)
          .describe('Name of the cluster. More about it here.'),
        count: z.number().int().min(0).max(1000).default(1).describe('How many (0–1000).'),
        whole: z.number().int().describe('A whole number.'),
        mode: z.enum(['a', 'b']).optional().describe('Which mode: a or b.'),
        nested: z
          .object({
            inner: z.string().describe('Not listed: nested.'),
            deep: z.object({ x: z.string() }).strict(),
            bounded: z.number().int().min(1).max(9).default(3),
          })
          .strict()
          .describe('A nested object.'),
        either: z.union([z.boolean(), z.string()]).optional().describe('On, or its setting.'),
        threads: z
          .union([z.literal(1), z.literal(2)])
          .optional()
          .describe('1 or 2.'),
        labels: z.record(z.string(), z.string()).optional().describe('Labels.'),
        region: z.string().optional().describe('AWS Region code, e.g. us-west-2. Defaults to the server region.'),
      })
      .strict();
    assert.deepEqual(listedInputSchema(jsonOf(Input, 'input')), {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Name of the cluster.' },
        count: { default: 1, description: 'How many (0–1000).', type: 'integer', minimum: 0, maximum: 1000 },
        whole: { type: 'integer', description: 'A whole number.' },
        mode: { description: 'Which mode: a or b.', type: 'string', enum: ['a', 'b'] },
        nested: {
          type: 'object',
          // Its fields are named and typed; their bounds and defaults are the server's to check and apply.
          properties: { inner: { type: 'string' }, deep: { type: 'object' }, bounded: { type: 'integer' } },
          required: ['inner', 'deep'],
          description: 'A nested object.',
        },
        either: { description: 'On, or its setting.', type: ['boolean', 'string'] },
        threads: { description: '1 or 2.', type: 'number', enum: [1, 2] },
        labels: { description: 'Labels.', type: 'object', additionalProperties: { type: 'string' } },
        // Described once, in the server instructions (SHARED_FIELDS).
        region: { type: 'string' },
      },
      required: ['name', 'whole', 'nested'],
    });
  });

  it('cuts a description at its first sentence, not at an abbreviation or a decimal', () => {
    assert.equal(firstSentence('One. Two.'), 'One.');
    assert.equal(
      firstSentence('Instance type, e.g. ml.g5.8xlarge. List them first.'),
      'Instance type, e.g. ml.g5.8xlarge.',
    );
    assert.equal(firstSentence('No end'), 'No end');
  });
});
