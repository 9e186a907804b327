import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { copyParts, envPairs, execForm, flagValue, healthcheck, readStages, type Stage } from './dockerfile-model.js';

/**
 * The runtime stage of deploy/Dockerfile, run here without a container engine (these machines have the docker
 * client, no daemon): its COPY --from=build instructions assemble a scratch /app from this checkout's build (what
 * the build stage's tsc and vite steps make; `npm test` has just run them), its node_modules narrowed to the
 * production packages `npm prune --omit=dev` keeps, its RUN and ENV applied, then its CMD started as its USER
 * (when this test runs as root) — and its HEALTHCHECK command must pass against it, then fail once it stops.
 * Every value comes from the Dockerfile. Paths the image has at its root (the data directory) are moved under the
 * scratch directory and the port becomes 0 (a free one), nothing else.
 *
 * Not exercised here: `npm ci` and `npm prune` (network; the lockfile's dev flags stand in for the prune), the build
 * stage's commands inside the image, the base images themselves (Node 24 there, this machine's Node here), Docker's
 * VOLUME, HEALTHCHECK scheduling and --network host.
 */

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

const root = repoRoot();
const stages = readStages(readFileSync(join(root, 'deploy', 'Dockerfile'), 'utf8'));
const runtime = stages.at(-1)!;
const workdirOf = (stage: Stage) => stage.instructions.filter((i) => i.keyword === 'WORKDIR').at(-1)!.args;
const runningAsRoot = process.getuid?.() === 0;

/** The top-level packages of the lockfile that `npm prune --omit=dev` keeps (nested ones come with their parent). */
function productionPackages(): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([path, entry]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path) && !entry.dev)
    .map(([path]) => path.slice('node_modules/'.length));
}

/** node_modules with only the production packages, each a link to this checkout's copy. */
function prunedNodeModules(target: string): void {
  for (const name of productionPackages()) {
    const source = join(root, 'node_modules', name);
    if (!existsSync(source)) continue; // an optional package for another platform
    mkdirSync(dirname(join(target, name)), { recursive: true });
    symlinkSync(source, join(target, name));
  }
}

interface Assembled {
  app: string;
  env: NodeJS.ProcessEnv;
  user: { uid: number; gid: number } | undefined;
  /** The image's absolute paths → their place in the scratch directory. */
  moved: (path: string) => string;
}

/** The runtime stage's instructions up to CMD, applied to `scratch`. */
function assemble(scratch: string): Assembled {
  const buildStage = stages[0]!;
  const buildRoot = workdirOf(buildStage);
  const app = join(scratch, 'app');
  const workdir = workdirOf(runtime);
  const moved = (path: string) =>
    path === workdir || path.startsWith(`${workdir}/`) ? join(app, posix.relative(workdir, path)) : join(scratch, path);
  const inApp = (destination: string) => join(app, posix.relative(workdir, posix.resolve(workdir, destination)));
  const env: NodeJS.ProcessEnv = {};
  let user: Assembled['user'];
  for (const instruction of runtime.instructions) {
    switch (instruction.keyword) {
      case 'COPY': {
        const { flags, sources, destination } = copyParts(instruction.args);
        assert.equal(flags.from, buildStage.name, `line ${instruction.line}: the runtime copies from the build stage`);
        const intoFolder = destination.endsWith('/') || sources.length > 1;
        for (const source of sources) {
          const fromRepo = join(root, posix.relative(buildRoot, source));
          const to = intoFolder ? join(inApp(destination), basename(source)) : inApp(destination);
          if (basename(source) === 'node_modules') prunedNodeModules(to);
          else {
            assert.ok(existsSync(fromRepo), `line ${instruction.line}: ${source} was built (${fromRepo})`);
            cpSync(fromRepo, to, { recursive: true });
          }
        }
        break;
      }
      case 'RUN': {
        // The image's paths moved under the scratch directory; chown needs root, as in the image build.
        const command = instruction.args.replace(/(^|\s)(\/[\w/-]+)/g, (_m, space: string, path: string) => {
          return `${space}${moved(path)}`;
        });
        const run = runningAsRoot ? command : command.replace(/&&\s*chown\s+\S+\s+\S+/, '');
        const r = spawnSync('sh', ['-c', run], { cwd: app, encoding: 'utf8' });
        assert.equal(r.status, 0, `line ${instruction.line}: ${run}\n${r.stderr}`);
        break;
      }
      case 'ENV':
        Object.assign(env, envPairs(instruction.args));
        break;
      case 'USER': {
        const [uid, gid = uid] = instruction.args.split(':').map(Number);
        assert.ok(Number.isInteger(uid) && Number.isInteger(gid), 'USER is numeric (uid:gid)');
        user = { uid: uid!, gid: gid! };
        break;
      }
    }
  }
  return { app, env, user: runningAsRoot && user && canRun(user) ? user : undefined, moved };
}

/**
 * Whether the image's user can run Node and read this checkout's packages here (a checkout under /root, or a Node
 * installed in root's home, is out of its reach): if not, the command runs as the current user and says so.
 */
function canRun(user: { uid: number; gid: number }): boolean {
  const probe = `require('node:fs').accessSync(${JSON.stringify(join(root, 'node_modules', 'fastify', 'package.json'))})`;
  const r = spawnSync(process.execPath, ['-e', probe], { ...user, timeout: 10_000 });
  if (r.status === 0) return true;
  process.stdout.write(`# uid ${user.uid} cannot run ${process.execPath} on ${root}: the command runs as root here\n`);
  return false;
}

describe('deploy/Dockerfile runtime stage, run in a scratch directory', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'instantstart-image-'));
  chmodSync(scratch, 0o755); // the image's user reads /app
  const token = `image-test-${process.pid}-${Date.now()}`;
  let assembled: Assembled;
  let child: ReturnType<typeof spawn> | undefined;
  let url = '';
  let output = '';
  let exited: Promise<number | null>;

  before(async () => {
    assembled = assemble(scratch);
    const cmd = execForm(runtime.instructions.filter((i) => i.keyword === 'CMD').at(-1)!.args);
    const argv = cmd.map((arg, i) =>
      cmd[i - 1] === '--port' ? '0' : arg.startsWith('/') ? assembled.moved(arg) : arg,
    );
    // Only what the image and the systemd unit give it: no AWS setting of this machine, no credentials; the
    // instance metadata service is off so the credential chain ends at once ("not connected to AWS").
    const env = {
      ...assembled.env,
      PATH: process.env.PATH,
      HOME: scratch,
      AWS_REGION: 'us-west-2',
      AWS_EC2_METADATA_DISABLED: 'true',
      INSTANTSTART_API_TOKEN: token,
    };
    child = spawn(argv[0] === 'node' ? process.execPath : argv[0]!, argv.slice(1), {
      cwd: assembled.app,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(assembled.user ?? {}),
    });
    exited = new Promise((r) => child!.once('exit', (code) => r(code)));
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the image's command did not start:\n${output}`)), 30_000);
      child!.stdout!.on('data', () => {
        const m = /UI\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child!.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the image's command exited (${code}):\n${output}`));
      });
    });
  });

  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(scratch, { recursive: true, force: true });
  });

  it('serves /healthz without a token and the UI, and refuses the API without the token', async () => {
    const health = await fetch(`${url}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'ok' });
    const ui = await fetch(`${url}/`);
    assert.equal(ui.status, 200);
    assert.match(await ui.text(), /<div id="root">|<html/i);
    assert.equal((await fetch(`${url}/api/v1/clusters`)).status, 401);
    const withToken = await fetch(`${url}/api/v1/clusters`, { headers: { authorization: `Bearer ${token}` } });
    assert.notEqual(withToken.status, 401);
    assert.ok(!output.includes(token), 'the token never reaches the output');
  });

  it("runs as the image's user", (t) => {
    const status = `/proc/${child!.pid}/status`;
    if (!assembled.user || !existsSync(status)) {
      t.skip(
        assembled.user
          ? 'no /proc here'
          : 'run as the current user: this test is not root, or uid 1000 cannot reach it',
      );
      return;
    }
    const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(status, 'utf8'))?.[1];
    assert.equal(Number(uid), assembled.user.uid);
  });

  it('gives the image user a data directory of its own to write in (nothing is stored before AWS answers)', () => {
    const cmd = execForm(runtime.instructions.filter((i) => i.keyword === 'CMD').at(-1)!.args);
    const dataDir = assembled.moved(flagValue(cmd, '--data-dir')!);
    assert.ok(statSync(dataDir).isDirectory());
    const write = spawnSync(
      process.execPath,
      ['-e', `require('node:fs').writeFileSync(${JSON.stringify(join(dataDir, 'probe'))}, 'x')`],
      {
        ...(assembled.user ?? {}),
      },
    );
    assert.equal(write.status, 0, String(write.stderr));
    if (assembled.user) assert.equal(statSync(dataDir).uid, assembled.user.uid);
  });

  it("the image's HEALTHCHECK command passes while it runs and fails once it stopped", async () => {
    const check = healthcheck(runtime.instructions.find((i) => i.keyword === 'HEALTHCHECK')!.args).command as string[];
    const port = new URL(url).port;
    const argv = check.map((arg) => arg.replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${port}`));
    const run = () => spawnSync(process.execPath, argv.slice(1), { cwd: assembled.app, timeout: 10_000 }).status;
    assert.equal(argv[0], 'node');
    assert.equal(run(), 0);
    child!.kill('SIGTERM');
    assert.equal(await exited, 0, `a clean stop on SIGTERM (docker stop):\n${output}`);
    assert.equal(run(), 1);
  });

  it('ran with production dependencies only', () => {
    const linked = productionPackages();
    assert.ok(!linked.includes('typescript') && !linked.includes('vite'), 'build tools stay in the build stage');
    assert.ok(linked.includes('fastify') && linked.includes('better-sqlite3'));
  });
});
