import { z } from 'zod';
import type { CallLog } from './core/calls.js';
import { faultSchema } from './core/faults.js';
import type { RawHttpResponse, SandboxRuntime, ServiceModule } from './core/service.js';
import type { KubeCluster } from './kube/cluster.js';
import { setSandboxMetric } from './kube/controllers/sandbox-metrics.js';
import { injectTrainingFault, TrainingFaultError, trainingFaultSchema } from './kube/controllers/training-faults.js';

/**
 * The sandbox's own admin API (`/_sandbox/*`, never used by product code): call log, inventory,
 * faults (also into the workloads of a sandbox EKS cluster: `/_sandbox/kube/<cluster>/faults/…`),
 * clock and reset. Plain JSON, unsigned: it only ever listens on loopback.
 */
export interface AdminRequest {
  method: string;
  url: URL;
  body: Buffer;
  runtime: SandboxRuntime;
  calls: CallLog;
  services: ServiceModule[];
  tick: () => void;
  /** The Kubernetes side of the sandbox EKS clusters (absent: no `/_sandbox/kube/*` routes). */
  kube?: { clusterNamed(name: string, region?: string): KubeCluster | 'ambiguous' | undefined };
}

const KUBE_TRAINING_FAULT = /^\/_sandbox\/kube\/([^/]+)\/faults\/training$/;
const KUBE_METRICS = /^\/_sandbox\/kube\/([^/]+)\/metrics$/;

/** A value for the sandbox's metric store (kube/controllers/sandbox-metrics.ts): by exact PromQL query, or by metric name. */
const metricSchema = z
  .object({
    query: z.string().min(1).max(4096).optional().describe('a PromQL query, matched exactly'),
    name: z.string().min(1).max(256).optional().describe('a metric name (Prometheus or CloudWatch metricName)'),
    value: z.number().finite(),
    region: z.string().optional(),
  })
  .strict()
  .refine((m) => m.query !== undefined || m.name !== undefined, { message: 'give "query" or "name"' });

const clockSchema = z
  .object({
    speed: z.number().gt(0).max(1_000_000).optional().describe('sandbox seconds per real second'),
    advanceSeconds: z.number().min(0).optional().describe('jump sandbox time forward'),
  })
  .strict();

const json = (status: number, value: unknown): RawHttpResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value, null, 2),
});

const problem = (status: number, detail: string) => json(status, { error: detail });

function parseBody(body: Buffer): unknown {
  if (body.length === 0) return {};
  return JSON.parse(body.toString('utf8'));
}

function zodDetail(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
}

export async function handleAdmin(req: AdminRequest): Promise<RawHttpResponse> {
  const { method, url, runtime, calls, services } = req;
  const route = `${method} ${url.pathname.replace(/\/+$/, '')}`;
  let body: unknown;
  try {
    body = parseBody(req.body);
  } catch {
    return problem(400, 'request body is not valid JSON');
  }

  const trainingFault = KUBE_TRAINING_FAULT.exec(url.pathname.replace(/\/+$/, ''));
  if (trainingFault && method === 'POST') return injectIntoTraining(req, safeDecode(trainingFault[1]!), body);
  const metrics = KUBE_METRICS.exec(url.pathname.replace(/\/+$/, ''));
  if (metrics && method === 'POST') return setMetric(req, safeDecode(metrics[1]!), body);

  switch (route) {
    case 'GET /_sandbox/health':
      return json(200, {
        status: 'ok',
        pid: process.pid,
        endpoint: runtime.endpointUrl,
        sandboxTime: new Date(runtime.clock.now()).toISOString(),
        speed: runtime.clock.speed,
      });

    case 'GET /_sandbox/calls': {
      const q = url.searchParams;
      const mutating = q.get('mutating');
      const after = q.get('after');
      const records = calls.query({
        ...(q.get('service') ? { service: q.get('service')! } : {}),
        ...(q.get('operation') ? { operation: q.get('operation')! } : {}),
        ...(q.get('region') ? { region: q.get('region')! } : {}),
        ...(mutating === 'true' || mutating === 'false' ? { mutating: mutating === 'true' } : {}),
        ...(after && /^\d+$/.test(after) ? { after: Number(after) } : {}),
      });
      return json(200, { calls: records });
    }

    case 'GET /_sandbox/inventory': {
      const inventory: Record<string, Record<string, unknown[]>> = {};
      for (const s of services) {
        const inv = s.inventory?.(runtime.store.state);
        if (inv) inventory[s.signingName] = inv;
      }
      return json(200, inventory);
    }

    case 'GET /_sandbox/faults':
      return json(200, { faults: runtime.faults.list() });

    case 'POST /_sandbox/faults': {
      const list = Array.isArray((body as { faults?: unknown }).faults)
        ? (body as { faults: unknown[] }).faults
        : [body];
      const parsed = z.array(faultSchema).safeParse(list);
      if (!parsed.success) return problem(400, zodDetail(parsed.error));
      try {
        const added = parsed.data.map((f) => runtime.faults.add(f));
        runtime.store.markDirty();
        return json(201, { faults: added });
      } catch (err) {
        return problem(400, err instanceof Error ? err.message : String(err));
      }
    }

    case 'DELETE /_sandbox/faults': {
      const removed = runtime.faults.clear(url.searchParams.get('id') ?? undefined);
      return json(200, { removed });
    }

    case 'GET /_sandbox/clock':
      return json(200, { now: new Date(runtime.clock.now()).toISOString(), speed: runtime.clock.speed });

    case 'POST /_sandbox/clock': {
      const parsed = clockSchema.safeParse(body);
      if (!parsed.success) return problem(400, zodDetail(parsed.error));
      if (parsed.data.speed !== undefined) runtime.clock.setSpeed(parsed.data.speed);
      if (parsed.data.advanceSeconds !== undefined) runtime.clock.advance(parsed.data.advanceSeconds * 1000);
      req.tick();
      runtime.store.markDirty();
      return json(200, { now: new Date(runtime.clock.now()).toISOString(), speed: runtime.clock.speed });
    }

    case 'POST /_sandbox/reset':
      runtime.store.reset();
      runtime.faults.clear();
      calls.clear();
      return json(200, { reset: true });

    default:
      return problem(404, `no sandbox admin route ${route}; see docs/SANDBOX.md`);
  }
}

/** `POST /_sandbox/kube/<cluster>/metrics`: a value the cluster's KEDA triggers read (a sandbox device: there is no Prometheus or CloudWatch). */
function setMetric(req: AdminRequest, clusterName: string, body: unknown): RawHttpResponse {
  const parsed = metricSchema.safeParse(body);
  if (!parsed.success) return problem(400, zodDetail(parsed.error));
  const cluster = req.kube?.clusterNamed(clusterName, parsed.data.region);
  if (cluster === 'ambiguous')
    return problem(400, `EKS clusters named ${clusterName} live in several Regions: name one with "region"`);
  if (!cluster) return problem(404, `no live sandbox EKS cluster named ${clusterName}`);
  setSandboxMetric(cluster, { query: parsed.data.query, name: parsed.data.name }, parsed.data.value);
  req.runtime.store.markDirty();
  req.tick();
  return json(200, {
    cluster: clusterName,
    query: parsed.data.query,
    name: parsed.data.name,
    value: parsed.data.value,
  });
}

const safeDecode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** `POST /_sandbox/kube/<cluster>/faults/training`: crash, hang or NCCL-time-out ranks of a HyperPodPyTorchJob (training-faults.ts). */
function injectIntoTraining(req: AdminRequest, clusterName: string, body: unknown): RawHttpResponse {
  const parsed = trainingFaultSchema.safeParse(body);
  if (!parsed.success) return problem(400, zodDetail(parsed.error));
  const cluster = req.kube?.clusterNamed(clusterName, parsed.data.region);
  if (cluster === 'ambiguous')
    return problem(400, `EKS clusters named ${clusterName} live in several Regions: name one with "region"`);
  if (!cluster)
    return problem(
      404,
      `no live sandbox EKS cluster named ${clusterName}${parsed.data.region ? ` in ${parsed.data.region}` : ''}`,
    );
  try {
    const injected = injectTrainingFault(cluster, parsed.data);
    // The next pass of the controllers (at most 100 ms of sandbox time away) ends or freezes the process.
    req.tick();
    req.runtime.store.markDirty();
    return json(201, { cluster: clusterName, ...injected });
  } catch (err) {
    if (err instanceof TrainingFaultError) return problem(err.status, err.message);
    throw err;
  }
}
