import type { Any } from '../controllers/util.js';

/**
 * Which model server a container runs, read from its command and arguments as the real programs
 * parse them (`--flag value` and `--flag=value`; a `sh -c` script split into words):
 *
 * - vLLM: `vllm serve <model> …` (also `--model <m>`), or the OpenAI image's old entrypoint
 *   `python3 -m vllm.entrypoints.openai.api_server --model <m>`; an image `vllm/vllm-openai` with
 *   only arguments runs its entrypoint (`vllm serve`) with them. Port 8000 by default (vLLM's
 *   `--port`), served model name `--served-model-name` (first value) or the model.
 * - SGLang: `python3 -m sglang.launch_server --model-path <m>` (or `--model`), port 30000 by default,
 *   `/metrics` only with `--enable-metrics` (SGLang's ServerArgs).
 * - The SGLang router: `python3 -m sglang_router.launch_router …` with the flags of sgl-project/sglang
 *   `sgl-model-gateway/bindings/python/src/sglang_router/router_args.py` (port 30000, prometheus
 *   port 29000, policy cache_aware, discovery port 80, cache threshold 0.3, balance thresholds 64 / 1.5).
 * - custom: any other container that declares a containerPort named `http` (assumed: the sandbox
 *   answers the OpenAI API there, naming the image's last path part as the model).
 */

export type Engine = 'vllm' | 'sglang' | 'custom';

export interface ModelServerSpec {
  kind: 'model-server';
  engine: Engine;
  /** The model as given (a Hub id or a path). */
  model: string;
  /** What `/v1/models` lists and requests name. */
  servedName: string;
  port: number;
  /** Whether GET /metrics answers (SGLang only with --enable-metrics). */
  metrics: boolean;
}

export type RouterPolicy = 'cache_aware' | 'round_robin' | 'random' | 'power_of_two';

export interface RouterSpec {
  kind: 'router';
  port: number;
  prometheusPort: number;
  policy: RouterPolicy;
  serviceDiscovery: boolean;
  selector: Record<string, string>;
  discoveryPort: number;
  /** undefined: every namespace (the router then lists pods cluster-wide). */
  discoveryNamespace?: string;
  workerUrls: string[];
  cacheThreshold: number;
  balanceAbs: number;
  balanceRel: number;
}

export type ServingSpec = ModelServerSpec | RouterSpec;

/** A `sh -c` script's words (quotes removed), or the argv itself. */
export function argvOf(container: Any): string[] {
  const argv = [...((container.command ?? []) as unknown[]), ...((container.args ?? []) as unknown[])].map(String);
  const shell = argv.findIndex((a, i) => i > 0 && a === '-c' && /(^|\/)(ba|da|z)?sh$/.test(argv[0] ?? ''));
  if (shell < 0) return argv;
  const script = argv.slice(shell + 1).join(' ');
  const words: string[] = [];
  for (const m of script.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}

/** Values of the flags of a command line: `--a b c --d=e` → {a: [b, c], d: [e]}; positionals under ''. */
function flagsOf(argv: string[]): Map<string, string[]> {
  const flags = new Map<string, string[]>([['', []]]);
  let current = '';
  for (const word of argv) {
    if (/^--?[A-Za-z]/.test(word)) {
      const [name, value] = word.replace(/^--?/, '').split(/=(.*)/s, 2) as [string, string | undefined];
      current = name.replace(/_/g, '-');
      flags.set(current, [...(flags.get(current) ?? []), ...(value !== undefined ? [value] : [])]);
      if (value !== undefined) current = '';
      continue;
    }
    flags.get(current)!.push(word);
    // A flag takes one value unless it is one of the multi-valued ones; what follows is positional.
    if (current && !MULTI.has(current)) current = '';
  }
  return flags;
}

const MULTI = new Set(['selector', 'worker-urls', 'served-model-name', 'prefill-selector', 'decode-selector']);

const first = (flags: Map<string, string[]>, name: string) => flags.get(name)?.[0];
const num = (flags: Map<string, string[]>, name: string, fallback: number) => {
  const v = Number(first(flags, name));
  return Number.isFinite(v) && first(flags, name) !== undefined ? v : fallback;
};
const has = (flags: Map<string, string[]>, name: string) => flags.has(name);

/** Index of `-m <module>` in an argv run by python (`python3 -m x`, `python -m x`). */
function pythonModule(argv: string[]): { module: string; rest: string[] } | undefined {
  const i = argv.findIndex((a, j) => a === '-m' && j > 0 && /(^|\/)python[\d.]*$/.test(argv[j - 1] ?? ''));
  if (i < 0 || !argv[i + 1]) return undefined;
  return { module: argv[i + 1]!, rest: argv.slice(i + 2) };
}

export function servingSpecOf(container: Any): ServingSpec | undefined {
  const argv = argvOf(container);
  const py = pythonModule(argv);
  if (py?.module === 'sglang_router.launch_router') return routerSpec(flagsOf(py.rest));
  if (py?.module === 'sglang.launch_server') {
    const flags = flagsOf(py.rest);
    const model = first(flags, 'model-path') ?? first(flags, 'model');
    if (model) return server('sglang', flags, model, 30000, has(flags, 'enable-metrics'));
  }
  if (py?.module === 'vllm.entrypoints.openai.api_server') {
    const flags = flagsOf(py.rest);
    return server('vllm', flags, first(flags, 'model') ?? 'facebook/opt-125m', 8000, true);
  }
  const serve = argv.findIndex((a, i) => a === 'serve' && /(^|\/)vllm$/.test(argv[i - 1] ?? ''));
  const imageEntrypoint =
    !container.command?.length && /(^|\/)vllm(-openai)?([:@]|$)/.test(String(container.image ?? '').toLowerCase());
  if (serve >= 0 || imageEntrypoint) {
    const flags = flagsOf(serve >= 0 ? argv.slice(serve + 1) : argv);
    const model = flags.get('')![0] ?? first(flags, 'model') ?? 'Qwen/Qwen3-0.6B';
    return server('vllm', flags, model, 8000, true);
  }
  const http = ((container.ports ?? []) as Any[]).find((p) => p?.name === 'http');
  if (http?.containerPort) {
    const image = String(container.image ?? 'model').split('@')[0]!;
    const model = image.split('/').pop()!.replace(/:.*$/, '');
    return {
      kind: 'model-server',
      engine: 'custom',
      model,
      servedName: model,
      port: Number(http.containerPort),
      metrics: true,
    };
  }
  return undefined;
}

function server(
  engine: Engine,
  flags: Map<string, string[]>,
  model: string,
  port: number,
  metrics: boolean,
): ModelServerSpec {
  return {
    kind: 'model-server',
    engine,
    model,
    servedName: first(flags, 'served-model-name') ?? model,
    port: num(flags, 'port', port),
    metrics,
  };
}

const POLICIES: RouterPolicy[] = ['cache_aware', 'round_robin', 'random', 'power_of_two'];

function routerSpec(flags: Map<string, string[]>): RouterSpec {
  const policy = first(flags, 'policy') as RouterPolicy | undefined;
  const selector: Record<string, string> = {};
  for (const pair of flags.get('selector') ?? []) {
    const [k, v] = pair.split(/=(.*)/s, 2);
    if (k) Object.defineProperty(selector, k, { value: v ?? '', enumerable: true, writable: true, configurable: true });
  }
  const namespace = first(flags, 'service-discovery-namespace');
  return {
    kind: 'router',
    port: num(flags, 'port', 30000),
    prometheusPort: num(flags, 'prometheus-port', 29000),
    policy: policy && POLICIES.includes(policy) ? policy : 'cache_aware',
    serviceDiscovery: has(flags, 'service-discovery'),
    selector,
    discoveryPort: num(flags, 'service-discovery-port', 80),
    ...(namespace ? { discoveryNamespace: namespace } : {}),
    workerUrls: flags.get('worker-urls') ?? [],
    cacheThreshold: num(flags, 'cache-threshold', 0.3),
    balanceAbs: num(flags, 'balance-abs-threshold', 64),
    balanceRel: num(flags, 'balance-rel-threshold', 1.5),
  };
}

/**
 * How long after its start a server answers (assumed — real ones take from seconds to many minutes
 * to load weights): vLLM 6 s, SGLang 8 s, a custom server 3 s, the router 1 s. Until then the port
 * refuses connections, and a readiness probe against it fails.
 */
export function startupMs(spec: ServingSpec): number {
  if (spec.kind === 'router') return 1000;
  return spec.engine === 'vllm' ? 6000 : spec.engine === 'sglang' ? 8000 : 3000;
}

/** The ports a serving container listens on. */
export const portsOf = (spec: ServingSpec): number[] =>
  spec.kind === 'router' ? [spec.port, spec.prometheusPort] : [spec.port];

/** How long after its start a container accepts connections (0 for what the sandbox does not serve). */
export function listensAfterMs(container: Any): number {
  const spec = servingSpecOf(container);
  return spec ? startupMs(spec) : 0;
}
