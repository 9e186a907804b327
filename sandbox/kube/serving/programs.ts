import type { KubeCluster } from '../cluster.js';
import { inRange, periodic, type Line, type Program } from '../controllers/program-lines.js';
import { condition, type Any } from '../controllers/util.js';
import type { KubeObject } from '../types.js';
import { discoverWorkers, discoveryError } from './router.js';
import { servingSpecOf, startupMs, type ModelServerSpec, type RouterSpec } from './servers.js';

/**
 * What model servers and the router print (`kubectl logs`), worded as the real programs do at
 * start-up: vLLM's `Starting vLLM API server on http://0.0.0.0:<port>` and uvicorn's lines; SGLang's
 * `server_args=ServerArgs(…)`, weight loading, then `The server is fired up and ready to roll!`; the
 * router's Rust tracing lines, one `Adding pod` per worker it has discovered (at the time the pod
 * became Ready) or, when its ServiceAccount may not list pods, the watcher's Forbidden error every
 * 30 s. The last start-up line comes at the server's start-up time (servers.ts). They never exit.
 */

const two = (n: number) => String(n).padStart(2, '0');
/** vLLM's logger: `INFO 06-01 12:00:05 [file.py:123] `. */
const vllmHead = (at: number, where: string) => {
  const d = new Date(at);
  return `INFO ${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} [${where}] `;
};
/** SGLang's and the router's stamp: `2026-06-01 12:00:05`. */
const stamp = (at: number) => new Date(at).toISOString().slice(0, 19).replace('T', ' ');

function vllmLines(spec: ModelServerSpec, t0: number): Line[] {
  const ready = t0 + startupMs(spec);
  const at = (ms: number, where: string, text: string) => ({ at: t0 + ms, text: `${vllmHead(t0 + ms, where)}${text}` });
  return [
    at(0, '__init__.py:241', 'Automatically detected platform cuda.'),
    at(1000, 'api_server.py:1805', 'vLLM API server version 0.10.1.1'),
    at(
      1000,
      'utils.py:326',
      `non-default args: {'model_tag': '${spec.model}', 'port': ${spec.port}${spec.servedName !== spec.model ? `, 'served_model_name': ['${spec.servedName}']` : ''}}`,
    ),
    at(2000, 'gpu_model_runner.py:1953', `Starting to load model ${spec.model}...`),
    at(4000, 'gpu_model_runner.py:1985', 'Model loading took 1.14 GiB and 1.87 seconds'),
    at(5000, 'launcher.py:36', 'Available routes are:'),
    ...['/health', '/v1/models', '/v1/chat/completions', '/v1/completions', '/metrics'].map((route) =>
      at(5000, 'launcher.py:44', `Route: ${route}, Methods: ${route.startsWith('/v1/c') ? 'POST' : 'GET'}`),
    ),
    {
      at: ready,
      text: `${vllmHead(ready, 'api_server.py:1857')}Starting vLLM API server on http://0.0.0.0:${spec.port}`,
    },
    { at: ready, text: 'INFO:     Started server process [1]' },
    { at: ready, text: 'INFO:     Waiting for application startup.' },
    { at: ready, text: 'INFO:     Application startup complete.' },
  ];
}

function sglangLines(spec: ModelServerSpec, t0: number): Line[] {
  const ready = t0 + startupMs(spec);
  const at = (ms: number, text: string) => ({ at: t0 + ms, text: `[${stamp(t0 + ms)}] ${text}` });
  return [
    at(
      0,
      `server_args=ServerArgs(model_path='${spec.model}', served_model_name='${spec.servedName}', host='0.0.0.0', port=${spec.port}, enable_metrics=${spec.metrics ? 'True' : 'False'}, ...)`,
    ),
    at(2000, 'Load weight begin. avail mem=78.50 GB'),
    at(5000, 'Load weight end. type=Qwen3ForCausalLM, dtype=torch.bfloat16, avail mem=63.20 GB, mem usage=15.30 GB.'),
    at(6000, 'KV Cache is allocated. #tokens: 400000, K size: 20.00 GB, V size: 20.00 GB'),
    at(7000, 'INFO:     Started server process [1]'),
    at(7000, 'INFO:     Waiting for application startup.'),
    at(7000, 'INFO:     Application startup complete.'),
    at(7000, `INFO:     Uvicorn running on http://0.0.0.0:${spec.port} (Press CTRL+C to quit)`),
    { at: ready, text: `[${stamp(ready)}] The server is fired up and ready to roll!` },
  ];
}

function routerProgram(cluster: KubeCluster | undefined, pod: KubeObject, spec: RouterSpec): Program {
  const policy = spec.policy.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());
  const head = (at: number, level: string, target: string) => `${stamp(at)}  ${level} sglang_router_rs::${target}: `;
  return {
    lines(t0, from, until) {
      const lines: Line[] = [
        {
          at: t0,
          text: `${head(t0, 'INFO', 'server')}Starting router on 0.0.0.0:${spec.port} | mode: Regular | policy: ${policy} | max_payload: 256MB`,
        },
        { at: t0, text: `${head(t0, 'INFO', 'server')}Prometheus metrics on 0.0.0.0:${spec.prometheusPort}` },
      ];
      if (spec.serviceDiscovery) {
        const selector = Object.entries(spec.selector)
          .map(([k, v]) => `${k}=${v}`)
          .join(',');
        lines.push({
          at: t0 + 1000,
          text: `${head(t0 + 1000, 'INFO', 'service_discovery')}Starting K8s service discovery | selector: '${selector}' | namespace: ${spec.discoveryNamespace ?? 'all'} | port: ${spec.discoveryPort}`,
        });
      }
      const error = cluster ? discoveryError(cluster, pod, spec) : undefined;
      if (error) {
        const status = JSON.stringify({ status: 'Failure', message: error, reason: 'Forbidden', code: 403 });
        lines.push(
          ...periodic(
            t0 + 1000,
            from,
            until,
            30_000,
            0,
            Number.MAX_SAFE_INTEGER,
            (i) =>
              `${head(t0 + 1000 + i * 30_000, 'ERROR', 'service_discovery')}Kubernetes watcher error: ApiError: ${error}: Forbidden (ErrorResponse ${status})`,
          ),
        );
      } else if (cluster) {
        const workers = discoverWorkers(cluster, pod, spec);
        for (const w of Array.isArray(workers) ? workers : []) {
          const readySince = Date.parse(String(condition(w.pod, 'Ready')?.lastTransitionTime ?? '')) || t0;
          const at = Math.max(t0 + 1000, readySince);
          lines.push({
            at,
            text: `${head(at, 'INFO', 'service_discovery')}Adding pod: ${w.pod.metadata.name} | type: Regular | url: ${w.url}`,
          });
        }
      }
      return inRange(lines, from, until).sort((a, b) => a.at - b.at);
    },
    exitCode: 0,
  };
}

/** The program of a serving container (`vllm`, `sglang`, `sglang-router`), or undefined for another kind. */
export function servingProgram(
  kind: string,
  pod: KubeObject,
  container: Any,
  cluster?: KubeCluster,
): Program | undefined {
  const spec = servingSpecOf(container);
  if (!spec) return undefined;
  if (kind === 'sglang-router' && spec.kind === 'router') return routerProgram(cluster, pod, spec);
  if (spec.kind !== 'model-server') return undefined;
  if (kind === 'vllm' && spec.engine === 'vllm')
    return { lines: (t0, f, u) => inRange(vllmLines(spec, t0), f, u), exitCode: 0 };
  if (kind === 'sglang' && spec.engine === 'sglang')
    return { lines: (t0, f, u) => inRange(sglangLines(spec, t0), f, u), exitCode: 0 };
  return undefined;
}

/** The program kind a serving container runs, chosen from its command (log-programs.ts asks first). */
export function servingKind(container: Any): 'vllm' | 'sglang' | 'sglang-router' | undefined {
  const spec = servingSpecOf(container);
  if (spec?.kind === 'router') return 'sglang-router';
  if (spec?.kind === 'model-server' && spec.engine !== 'custom') return spec.engine;
  return undefined;
}
