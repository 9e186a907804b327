import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { validate } from 'dockerfile-utils';
import { dockerIgnore } from './docker-ignore.js';
import {
  copyParts,
  envPairs,
  execForm,
  flagValue,
  healthcheck,
  readInstructions,
  readStages,
} from './dockerfile-model.js';

/**
 * deploy/Dockerfile (issue 30): lint-clean by dockerfile-utils (the Docker language server's validator), and the
 * properties the deployment relies on, read from the parsed file: two stages, pinned base images, no remote ADD,
 * a non-root user, the data directory as a volume, a health check on /healthz, and the serve command for real AWS
 * bound to loopback. dockerfile-run.test.ts runs its commands.
 */

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

const root = repoRoot();
const text = readFileSync(join(root, 'deploy', 'Dockerfile'), 'utf8');
const stages = readStages(text);
const runtime = stages.at(-1)!;
const inRuntime = (keyword: string) => runtime.instructions.filter((i) => i.keyword === keyword);
const cmd = execForm(inRuntime('CMD').at(-1)!.args);

describe('deploy/Dockerfile', () => {
  it('passes the linter with no problem at all (errors and warnings)', () => {
    const problems = validate(text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
    assert.deepEqual(problems, []);
  });

  it('builds in one stage and runs from another, each on a base image pinned by a version tag or digest', () => {
    assert.ok(stages.length >= 2, 'a multi-stage build');
    const names = stages.map((s) => s.name);
    for (const stage of stages) {
      if (names.includes(stage.from)) continue; // an earlier stage
      const image = stage.from;
      const digest = /@sha256:[0-9a-f]{64}$/.test(image);
      const tag = /^[^@]+:([\w][\w.-]*)$/.exec(image)?.[1];
      assert.ok(digest || tag, `${image}: a tag or a digest, never the implicit latest`);
      if (tag) {
        assert.notEqual(tag.toLowerCase(), 'latest', `${image}: not latest`);
        assert.match(tag, /^\d+\.\d+\.\d+/, `${image}: a full version (major.minor.patch), not a moving one`);
      }
    }
  });

  it('never ADDs from a URL or a git repository (an unpinned fetch at build time)', () => {
    for (const add of readInstructions(text).filter((i) => i.keyword === 'ADD')) {
      assert.doesNotMatch(add.args, /(^|\s)(https?:\/\/|git@|git:\/\/)/, `line ${add.line}: ADD from a URL`);
    }
  });

  it('runs as a non-root user in the final stage', () => {
    const user = inRuntime('USER').at(-1);
    assert.ok(user, 'a USER instruction in the final stage');
    const name = user.args.split(':')[0]!;
    assert.notEqual(name, 'root');
    assert.notEqual(name, '0');
  });

  it('serves real AWS on loopback with the data directory as a volume, and no token baked in', () => {
    assert.deepEqual(cmd.slice(0, 3), ['node', 'bin/instantstart.mjs', 'serve']);
    assert.equal(flagValue(cmd, '--cloud'), 'aws');
    assert.equal(flagValue(cmd, '--host'), '127.0.0.1', 'binds loopback (docs/DEPLOY.md → Binding)');
    assert.equal(flagValue(cmd, '--port'), '3099');
    assert.equal(flagValue(cmd, '--token'), undefined, 'the token comes from the environment at start');
    const dataDir = flagValue(cmd, '--data-dir');
    const volumes = inRuntime('VOLUME').flatMap((v) => execForm(v.args));
    assert.ok(dataDir && volumes.includes(dataDir), `the data directory ${dataDir} is a VOLUME (${volumes})`);
    const env = Object.assign({}, ...inRuntime('ENV').map((e) => envPairs(e.args))) as Record<string, string>;
    assert.equal(env.INSTANTSTART_CLOUD, 'aws');
    for (const instruction of readInstructions(text).filter((i) => i.keyword === 'ENV' || i.keyword === 'ARG')) {
      assert.doesNotMatch(instruction.args, /TOKEN|SECRET|PASSWORD|AWS_ACCESS_KEY/i, `line ${instruction.line}`);
    }
  });

  it('checks its health on /healthz at the port it serves', () => {
    const checks = inRuntime('HEALTHCHECK');
    assert.equal(checks.length, 1);
    const { options, command } = healthcheck(checks[0]!.args);
    assert.notEqual(command, 'NONE');
    const url = (command as string[]).join(' ').match(/https?:\/\/[^'"\s)]+/)?.[0];
    assert.equal(url, `http://127.0.0.1:${flagValue(cmd, '--port')}/healthz`);
    assert.ok(options.interval && options.timeout, 'interval and timeout given');
  });

  it('the /healthz route it checks exists and needs no token (the liveness guard)', () => {
    const routes = readFileSync(join(root, 'src', 'capabilities', 'system', 'routes.ts'), 'utf8');
    assert.match(routes, /app\.get\('\/healthz', \{ config: \{ guard: 'liveness' \} \}/);
  });

  it('.dockerignore admits what the build copies and keeps out dependencies, builds, data and tests', () => {
    const ignored = dockerIgnore(readFileSync(join(root, '.dockerignore'), 'utf8'));
    const fromContext = stages
      .flatMap((s) => s.instructions)
      .filter((i) => i.keyword === 'COPY' && copyParts(i.args).flags.from === undefined)
      .flatMap((i) => copyParts(i.args).sources);
    assert.ok(fromContext.length > 0);
    for (const source of fromContext) {
      assert.ok(existsSync(join(root, source)), `${source} exists`);
      assert.equal(ignored(source), false, `${source} is in the build context`);
    }
    assert.equal(ignored('src/cli/serve.ts'), false);
    for (const kept of [
      'node_modules/fastify/package.json',
      'web/node_modules/x/index.js',
      'dist/bin/main.js',
      '.git/HEAD',
      '.instantstart/aws/000000000000/instantstart.db',
      'test-artifacts/shot.png',
      'test/cli/logger.test.ts',
      'bench/run.ts',
    ]) {
      assert.equal(ignored(kept), true, `${kept} stays out of the build context`);
    }
  });
});
