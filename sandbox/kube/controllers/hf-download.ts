import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { fileDenial } from '../../services/huggingface/access.js';
import { findModel, resolveRevision, type HubFile } from '../../services/huggingface/catalog.js';
import { fileBytes } from '../../services/huggingface/file-bytes.js';
import { containerEnv } from './container-env.js';
import { s3TargetOf } from './mounted-s3.js';
import { scriptOf } from './shell-script.js';
import { hexHash, T, type Any } from './util.js';

/**
 * The `hf download` program: what a container whose command is `hf download <repo> …` (the
 * huggingface_hub CLI) does in the sandbox. When its run starts it resolves what the real CLI
 * would: `HF_ENDPOINT` and `HF_TOKEN` from its environment (values, Secret and ConfigMap references),
 * the model and revision on the Hub simulation (reachable only when HF_ENDPOINT names it: the
 * sandbox has no internet), the gate, and where `--local-dir` lands (a Mountpoint S3 volume: the
 * PV's bucket and `prefix` mount option). That plan is remembered (ContainerWorld.memory), so the
 * run's log and effects stay the same after the Secret is deleted.
 *
 * Then, on the sandbox clock, it fetches the files one after another (0.3 s each plus 1 MiB/s),
 * printing tqdm-like progress lines as the CLI does, and each file lands in S3 when it is complete
 * (Mountpoint uploads a file when it is closed); the CLI's `.cache/huggingface/` bookkeeping lands
 * next to them. It ends by printing the local directory and exits 0. Failures end the run as the
 * CLI's errors do: RepositoryNotFoundError, RevisionNotFoundError, GatedRepoError (401 without a
 * token, 403 with one not granted), a connection error when HF_ENDPOINT is not the simulation, a
 * read-only file system — exit 1, with the last lines saying why.
 */

const PER_FILE_MS = 300;
const BYTES_PER_MS = (1024 * 1024) / 1000;
const CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_ENDPOINT = 'https://huggingface.co';

type Line = { offset: number; text: string };
type Write = { offset: number; key: string } & ({ file: HubFile; repo: string; sha: string } | { text: string });

/** What a run resolved at its start: its whole timeline and the objects it writes (JSON, kept in memory). */
export interface HfDownloadPlan {
  pod: { namespace: string; name: string };
  lines: Line[];
  exitOffset: number;
  exitCode: number;
  bucket?: string;
  writes: Write[];
  /** How many writes have landed. */
  written: number;
}

/** The argv of an `hf download` container (directly, or as `sh -c "hf download …"`); undefined for anything else. */
export function hfDownloadArgv(container: Any): string[] | undefined {
  const script = scriptOf(
    ((container.command ?? []) as unknown[]).map(String),
    ((container.args ?? []) as unknown[]).map(String),
  );
  const argv = words(script.replace(/^exec\s+/, ''));
  return argv[0] === 'hf' && argv[1] === 'download' ? argv.slice(2) : undefined;
}

const memoryKey = (pod: KubeObject, container: Any, run: number) =>
  `hf-download|${pod.metadata.uid}|${container.name}|${run}`;

/** The run as a log program (log-programs.ts): its lines and exit come from its plan. */
export function hfDownloadProgram(
  cluster: KubeCluster | undefined,
  pod: KubeObject,
  container: Any,
  run: number,
): {
  lines(startMs: number, fromMs: number, untilMs: number): Array<{ at: number; text: string }>;
  exitAfterMs: number;
  exitCode: number;
} {
  const plan = hfDownloadPlan(cluster, pod, container, run);
  return {
    lines: (t0, from, until) =>
      plan.lines.map((l) => ({ at: t0 + l.offset, text: l.text })).filter((l) => l.at >= from && l.at <= until),
    exitAfterMs: plan.exitOffset,
    exitCode: plan.exitCode,
  };
}

/** The plan of this run, made (and remembered) the first time the run is looked at. */
export function hfDownloadPlan(
  cluster: KubeCluster | undefined,
  pod: KubeObject,
  container: Any,
  run: number,
): HfDownloadPlan {
  const key = memoryKey(pod, container, run);
  const known = cluster?.world?.memory.get(key) as HfDownloadPlan | undefined;
  if (known) return known;
  const plan = makePlan(cluster, pod, container, run);
  cluster?.world?.memory.set(key, plan);
  return plan;
}

/**
 * Lands what each running or finished `hf download` run has written by now (every tick, after the
 * kubelets), and forgets the runs of pods that are gone.
 */
export function landHfDownloads(cluster: KubeCluster): void {
  const world = cluster.world;
  if (!world) return;
  const now = cluster.now();
  for (const key of world.memory.keys()) {
    if (!key.startsWith('hf-download|')) continue;
    const plan = world.memory.get(key) as HfDownloadPlan;
    const [, uid, containerName, runText] = key.split('|');
    const pod = cluster.objects.get(T.pods, plan.pod.namespace, plan.pod.name);
    if (!pod || pod.metadata.uid !== uid) {
      world.memory.delete(key);
      continue;
    }
    if (plan.written >= plan.writes.length || !plan.bucket) continue;
    const window = runWindow(pod, containerName!, Number(runText));
    if (!window) continue;
    // A run that exited by itself wrote everything (its exit time is rounded down to the second, as
    // the kubelet reports it); one stopped early (deadline, deletion) wrote what it had by then.
    const elapsed = window.exitCode === plan.exitCode ? Infinity : Math.min(now, window.end ?? now) - window.start;
    let written = plan.written;
    while (written < plan.writes.length && plan.writes[written]!.offset <= elapsed) {
      const w = plan.writes[written]!;
      world.putObject(plan.bucket, w.key, 'text' in w ? Buffer.from(w.text) : fileBytes(w.repo, w.sha, w.file));
      written++;
    }
    if (written !== plan.written) world.memory.set(key, { ...plan, written });
  }
}

/** When the run started and (if it has) ended, from the container's status. */
function runWindow(
  pod: KubeObject,
  containerName: string,
  run: number,
): { start: number; end?: number; exitCode?: number } | undefined {
  const cs = (((pod.status as Any | undefined)?.containerStatuses ?? []) as Any[]).find(
    (c) => c.name === containerName,
  );
  if (!cs) return undefined;
  const of = (state: Any | undefined) => {
    if (state?.running) return { start: Date.parse(state.running.startedAt) };
    if (state?.terminated)
      return {
        start: Date.parse(state.terminated.startedAt),
        end: Date.parse(state.terminated.finishedAt),
        exitCode: Number(state.terminated.exitCode),
      };
    return undefined;
  };
  if (cs.restartCount === run) return of(cs.state);
  if (cs.restartCount === run + 1) return of(cs.lastState);
  return undefined;
}

// ── the plan ──────────────────────────────────────────────────────────────────────────────────────

function makePlan(cluster: KubeCluster | undefined, pod: KubeObject, container: Any, run: number): HfDownloadPlan {
  const base = {
    pod: { namespace: pod.metadata.namespace ?? 'default', name: pod.metadata.name! },
    writes: [] as Write[],
    written: 0,
  };
  const fail = (lines: Line[], after = 1000): HfDownloadPlan => ({ ...base, lines, exitOffset: after, exitCode: 1 });
  const args = parseArgs(hfDownloadArgv(container) ?? []);
  if (!args.repo)
    return {
      ...base,
      lines: [
        {
          offset: 0,
          text: 'usage: hf download [-h] [--repo-type {model,dataset,space}] [--revision REVISION] [--local-dir LOCAL_DIR] repo_id [filenames ...]',
        },
        { offset: 0, text: 'hf download: error: the following arguments are required: repo_id' },
      ],
      exitOffset: 200,
      exitCode: 2,
    };
  const env = cluster ? containerEnv(cluster, pod, container) : { vars: {} };
  if (env.error)
    return fail([{ offset: 0, text: `[sandbox] the container could not start as configured: ${env.error}` }], 200);
  const endpoint = (env.vars.HF_ENDPOINT || DEFAULT_ENDPOINT).replace(/\/+$/, '');
  const token = args.token ?? env.vars.HF_TOKEN ?? env.vars.HUGGING_FACE_HUB_TOKEN;
  const revision = args.revision ?? 'main';
  const seed = `${pod.metadata.uid}|${container.name}|${run}`;
  const requestId = `Root=1-${hexHash(`${seed}|t`, 8)}-${hexHash(`${seed}|r`, 24)}`;
  const traceback = (error: string, detail: string[], at: number): Line[] => [
    { offset: at, text: 'Traceback (most recent call last):' },
    { offset: at, text: '  File "/usr/local/bin/hf", line 8, in <module>' },
    { offset: at, text: '    sys.exit(main())' },
    { offset: at, text: `${error}` },
    ...detail.map((text) => ({ offset: at, text })),
  ];

  if (!cluster?.world || endpoint !== cluster.world.hubEndpoint()) {
    const host = safeHost(endpoint);
    return fail(
      traceback(
        `requests.exceptions.ConnectionError: (MaxRetryError("HTTPSConnectionPool(host='${host}', port=443): Max retries exceeded with url: /api/models/${args.repo}/revision/${encodeURIComponent(revision)} (Caused by NameResolutionError: Failed to resolve '${host}')"), '(Request ID: ${requestId})')`,
        [
          `[sandbox] pods reach only the Hugging Face Hub simulation${cluster?.world ? ` at ${cluster.world.hubEndpoint()}` : ''}: set HF_ENDPOINT to it`,
        ],
        CONNECT_TIMEOUT_MS,
      ),
      CONNECT_TIMEOUT_MS,
    );
  }
  const model = findModel(args.repo);
  if (!model) {
    return fail(
      traceback(
        `huggingface_hub.errors.RepositoryNotFoundError: 404 Client Error. (Request ID: ${requestId})`,
        [
          '',
          `Repository Not Found for url: ${endpoint}/api/models/${args.repo}/revision/${encodeURIComponent(revision)}.`,
          'Please make sure you specified the correct `repo_id` and `repo_type`.',
          'If you are trying to access a private or gated repo, make sure you are authenticated.',
        ],
        500,
      ),
    );
  }
  const commit = resolveRevision(model, revision);
  if (!commit) {
    return fail(
      traceback(
        `huggingface_hub.errors.RevisionNotFoundError: 404 Client Error. (Request ID: ${requestId})`,
        [
          '',
          `Revision Not Found for url: ${endpoint}/api/models/${args.repo}/revision/${encodeURIComponent(revision)}.`,
          `Invalid rev id: ${revision}`,
        ],
        500,
      ),
    );
  }
  const files = commit.files.filter(
    (f) =>
      (args.files.length === 0 || args.files.includes(f.path)) &&
      (args.include.length === 0 || args.include.some((g) => glob(g, f.path))) &&
      !args.exclude.some((g) => glob(g, f.path)),
  );
  const denial = fileDenial(model, token, endpoint);
  if (denial) {
    const first = files[0]?.path ?? 'config.json';
    const name = denial.code === 'GatedRepo' ? 'GatedRepoError' : 'HfHubHTTPError';
    return fail(
      traceback(
        `huggingface_hub.errors.${name}: ${denial.status} Client Error. (Request ID: ${requestId})`,
        [
          '',
          ...(denial.code === 'GatedRepo'
            ? [`Cannot access gated repo for url ${endpoint}/${model.id}/resolve/${commit.sha}/${first}.`]
            : []),
          denial.message,
        ],
        800,
      ),
    );
  }

  const localDir =
    args.localDir ?? `/root/.cache/huggingface/hub/models--${model.id.replace('/', '--')}/snapshots/${commit.sha}`;
  const target =
    args.localDir && cluster ? s3TargetOf(cluster, pod, container, args.localDir) : { kind: 'local' as const };
  if (target.kind === 'read-only')
    return fail(traceback(`OSError: [Errno 30] Read-only file system: '${localDir}/.cache'`, [], 300));

  const lines: Line[] = [
    { offset: 0, text: `Fetching ${files.length} files:   0%|          | 0/${files.length} [00:00<?, ?it/s]` },
  ];
  const writes: Write[] = [];
  const keyOf = (path: string) => (target.kind === 's3' ? `${target.keyPrefix}${path}` : '');
  if (args.localDir) writes.push({ offset: 0, key: keyOf('.cache/huggingface/.gitignore'), text: '*\n' });
  let t = 0;
  files.forEach((file, i) => {
    const ms = PER_FILE_MS + Math.round(file.size / BYTES_PER_MS);
    t += ms;
    if (!args.quiet) {
      lines.push({
        offset: t,
        text: `${file.path}: 100%|██████████| ${sizeof(file.size)}/${sizeof(file.size)} [${clock(ms)}<00:00, ${sizeof((file.size * 1000) / ms)}B/s]`,
      });
      const pct = Math.floor(((i + 1) * 100) / files.length);
      const bar = '█'.repeat(Math.floor(pct / 10)).padEnd(10, ' ');
      lines.push({
        offset: t,
        text: `Fetching ${files.length} files: ${String(pct).padStart(3)}%|${bar}| ${i + 1}/${files.length} [${clock(t)}<${clock((t / (i + 1)) * (files.length - i - 1))}, ${(((i + 1) * 1000) / t).toFixed(2)}it/s]`,
      });
    }
    writes.push({ offset: t, key: keyOf(file.path), file, repo: model.id, sha: commit.sha });
    if (args.localDir)
      writes.push({
        offset: t,
        key: keyOf(`.cache/huggingface/download/${file.path}.metadata`),
        text: `${commit.sha}\n${hexHash(`${model.id}|${file.path}`, 40)}\n${(t / 1000).toFixed(6)}\n`,
      });
  });
  lines.push({ offset: t + 100, text: localDir });
  // The kubelet reports exits to the second (rounded down): exit on a whole second after the last line, so the log
  // keeps it.
  return {
    ...base,
    lines,
    exitOffset: Math.ceil((t + 101) / 1000) * 1000,
    exitCode: 0,
    ...(target.kind === 's3' ? { bucket: target.bucket, writes } : {}),
  };
}

interface HfArgs {
  repo?: string;
  files: string[];
  revision?: string;
  localDir?: string;
  token?: string;
  include: string[];
  exclude: string[];
  quiet: boolean;
}

function parseArgs(argv: string[]): HfArgs {
  const out: HfArgs = { files: [], include: [], exclude: [], quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] =
      a.startsWith('--') && a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === '--revision') out.revision = value();
    else if (flag === '--local-dir') out.localDir = value()?.replace(/\/+$/, '');
    else if (flag === '--token') out.token = value();
    else if (flag === '--include') out.include.push(value() ?? '');
    else if (flag === '--exclude') out.exclude.push(value() ?? '');
    else if (flag === '--quiet') out.quiet = true;
    else if (flag.startsWith('--')) value();
    else if (!out.repo) out.repo = a;
    else out.files.push(a);
  }
  return out;
}

/** Shell words: whitespace-separated, single or double quotes kept together. */
function words(script: string): string[] {
  return [...script.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** fnmatch as huggingface_hub's `--include`/`--exclude` use it: `*` and `?`. */
function glob(pattern: string, path: string): boolean {
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
  return re.test(path);
}

const safeHost = (endpoint: string) => {
  try {
    return new URL(endpoint).hostname;
  } catch {
    return endpoint;
  }
};

/** tqdm's format_sizeof: three significant digits with k/M/G (powers of 1000). */
function sizeof(n: number): string {
  for (const unit of ['', 'k', 'M', 'G', 'T']) {
    if (Math.abs(n) < 999.5)
      return `${Math.abs(n) < 99.95 ? (Math.abs(n) < 9.995 ? n.toFixed(2) : n.toFixed(1)) : n.toFixed(0)}${unit}`;
    n /= 1000;
  }
  return `${n.toFixed(1)}P`;
}

const clock = (ms: number) => {
  const s = Math.round(ms / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};
