import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { planDates } from '../../src/capabilities/clusters/ui/wizard/plan-dates.js';
import { changeOutcome } from '../../src/capabilities/features/ui/change-outcome.js';
import { downloadStatus } from '../../src/capabilities/model-downloads/ui/download-status.js';
import { WORDS } from '../../src/capabilities/storage/ui/form-words.js';
import { fieldsOf } from '../../src/capabilities/training/ui/schema-form.js';
import { AddStorageRequestSchema } from '../../src/domain/schemas/storage.js';
import { RECIPES, recipeView } from '../../src/domain/training/recipes/index.js';
import { inFormWords, withoutApiPointers } from '../../src/domain/form-words.js';

/**
 * The words the UI's text functions make (issue 26, item 7): true statuses and no API vocabulary. Each test fails
 * when the old text comes back. The pages as a whole are read by test/web/words.test.ts.
 */
describe("the UI's words", () => {
  it('the features notice says how the change ended once it did, "started" only while it runs', () => {
    assert.match(changeOutcome('succeeded').text, /finished/);
    assert.match(changeOutcome('failed').text, /failed/);
    assert.match(changeOutcome('cancelled').text, /cancelled/);
    for (const ended of ['succeeded', 'failed', 'cancelled'])
      assert.doesNotMatch(changeOutcome(ended).text, /started/, ended);
    assert.equal(changeOutcome('succeeded').type, 'success');
    assert.equal(changeOutcome('failed').type, 'error');
    assert.match(changeOutcome('running').text, /started/);
    assert.match(changeOutcome(undefined).text, /started/);
  });

  it('a download whose Job succeeded reads "Downloaded, listing the files", never "Downloading"', () => {
    const job = (state: string) => ({ name: 'dl', namespace: 'default', state }) as never;
    assert.equal(downloadStatus({ status: 'running', job: job('Succeeded') }).text, 'Downloaded, listing the files');
    assert.equal(downloadStatus({ status: 'running', job: job('Running') }).text, 'Downloading');
    assert.equal(downloadStatus({ status: 'running' }).text, 'Downloading', "no Job read: the operation's word");
    assert.equal(downloadStatus({ status: 'succeeded', job: job('Succeeded') }).text, 'Downloaded');
  });

  it("the job form's number hints name real bounds, never Number.MAX_SAFE_INTEGER", () => {
    const hints = RECIPES.flatMap((r) =>
      fieldsOf(recipeView(r).parameters).map((f) => ({
        field: `${r.id}.${f.name}`,
        kind: f.kind,
        constraint: f.constraint ?? '',
      })),
    );
    const numbers = hints.filter((h) => h.kind === 'integer' || h.kind === 'number');
    assert.ok(numbers.length > 0, 'the recipes have number fields');
    for (const h of hints) assert.doesNotMatch(h.constraint, /9007199254740991/, h.field);
    assert.ok(
      numbers.some((h) => /^1 to \d+/.test(h.constraint)),
      'a bounded integer reads "1 to N"',
    );
    const only = (s: z.ZodType) =>
      fieldsOf(z.toJSONSchema(z.object({ n: s }), { io: 'input' }) as Record<string, unknown>)[0]!.constraint ?? '';
    assert.equal(only(z.number().int().optional()), 'Optional', 'an integer without bounds has none');
    assert.equal(only(z.number().int().min(1).optional()), 'at least 1 · Optional');
    assert.equal(only(z.number().int().max(8).optional()), 'at most 8 · Optional');
  });

  it('the add-storage form words every server message about a choice field as its choices, not as request fields', () => {
    // The messages of the schema (what the form checks as the user types) and of the add checks (what the server
    // answers), read from the sources so that a new message is covered by itself.
    const fromSchema = [
      { kind: 's3', name: 'a', namespace: 'default' },
      { kind: 'fsx', name: 'a', namespace: 'default' },
      {
        kind: 'fsx',
        name: 'a',
        namespace: 'default',
        createFileSystem: true,
        fileSystemId: 'fs-1',
        storageCapacityGiB: 1200,
      },
      { kind: 'fsx', name: 'a', namespace: 'default', fileSystemId: 'fs-1', storageCapacityGiB: 1200 },
    ]
      .flatMap((body) => AddStorageRequestSchema.safeParse(body).error?.issues.map((i) => i.message) ?? [])
      .filter((m) => /create(Bucket|FileSystem)/.test(m));
    const checks = readFileSync('src/capabilities/storage/add-checks.ts', 'utf8');
    const fromChecks = [...checks.matchAll(/`([^`\n]*create(?:Bucket|FileSystem)[^`\n]*)`/g)].map((m) =>
      m[1]!.replace(/\$\{[^}]*\}/g, 'x'),
    );
    const messages = [...fromSchema, ...fromChecks];
    assert.ok(fromSchema.length >= 3 && fromChecks.length >= 2, `the messages were found: ${JSON.stringify(messages)}`);
    for (const m of messages) {
      assert.doesNotMatch(inFormWords(m, WORDS), /create(Bucket|FileSystem)|\b[a-z]+[A-Z]\w*\s*:\s*(true|false)/, m);
    }
    assert.equal(
      inFormWords("'x' does not exist: check the name, or set createBucket: true to make it", WORDS),
      "'x' does not exist: check the name, or choose “A new bucket” to make it",
    );
  });

  it('a server message on a screen leaves out its pointers to MCP tools and REST paths, and keeps every other parenthesis', () => {
    assert.equal(
      withoutApiPointers(
        'Ask for at most 2 instances, or buy more reserved capacity (list_training_plans / GET /api/v1/training-plans?region=us-west-2).',
      ),
      'Ask for at most 2 instances, or buy more reserved capacity.',
    );
    assert.equal(
      withoutApiPointers('Add it again in another zone, or on a training plan (list_training_plans).'),
      'Add it again in another zone, or on a training plan.',
    );
    assert.equal(
      withoutApiPointers(
        'Delete the cluster (DELETE /api/v1/clusters/a?region=us-west-2&confirm=true; MCP delete_cluster), or retry (POST /api/v1/operations/x/phases/y/retry; MCP retry_operation_phase).',
      ),
      'Delete the cluster, or retry.',
    );
    const plain = "A new file system (about 10 minutes) in us-west-2b (the cluster's zone).";
    assert.equal(withoutApiPointers(plain), plain);
    assert.equal(inFormWords('no capacity (list_training_plans)', undefined), 'no capacity');
  });

  it('a training plan\'s dates in the create wizard say "sandbox time" on the sandbox, like every cloud time', () => {
    const plan = { startTime: '2026-05-01T00:00:00Z', endTime: '2026-05-08T00:00:00Z' };
    assert.match(planDates(plan, true), / – .+ \(sandbox time\)$/);
    assert.doesNotMatch(planDates(plan, false), /sandbox/, "on AWS the cloud's clock is the clock");
  });
});
