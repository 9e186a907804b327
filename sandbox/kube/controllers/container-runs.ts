import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { programOf } from './log-programs.js';
import { hexHash, rfc3339, unit, type Any } from './util.js';

/**
 * One container's life in the simulated kubelet, on the sandbox clock: waiting (image pull, 2–6 s
 * unless the node already has the image; an image-pull fault keeps it in ErrImagePull /
 * ImagePullBackOff) → running its program → terminated when the program
 * exits, then restarted per the restart policy after a CrashLoopBackOff back-off of 10 s doubling
 * to 5 min (reset after a run of 10 min). Each call advances a status as far as `now` allows.
 */

const MAX_BACKOFF_MS = 300_000;
export const backoffMs = (restarts: number) => Math.min(MAX_BACKOFF_MS, 10_000 * 2 ** Math.max(0, restarts - 1));
const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;

export interface RunContext {
  /** The cluster the pod runs in (what programs such as `hf download` reach: its Secrets, volumes, the world beyond). */
  cluster: KubeCluster;
  pod: KubeObject;
  now: number;
  /** Images the node already has (pulled for other containers). */
  imagesOnNode: Set<string>;
  /** Restarts allowed after this exit code (the pod's restartPolicy; init containers never restart on success). */
  restarts(exitCode: number): boolean;
  /** `once`: recorded the first time only (a pull in progress is reported once, not every tick). */
  event(type: 'Normal' | 'Warning', reason: string, message: string, once?: boolean, minIntervalMs?: number): void;
  /** Why the registry refuses this image (an image-pull fault), or undefined when it pulls. */
  pullFailure?(image: string): PullFailure | undefined;
}

export type PullFailure = 'not-found' | 'unauthorized';

export function freshStatus(container: Any, waitingReason: 'ContainerCreating' | 'PodInitializing'): Any {
  return {
    name: container.name,
    image: container.image,
    imageID: '',
    ready: false,
    started: false,
    restartCount: 0,
    state: { waiting: { reason: waitingReason } },
    lastState: {},
  };
}

/**
 * Moves one container status forward from `since` (when it became able to start). Returns the
 * status, changed in place.
 */
export function advanceContainer(cs: Any, container: Any, since: number, ctx: RunContext): Any {
  const { pod, now } = ctx;
  for (let guard = 0; guard < 100; guard++) {
    const state = cs.state as Any;
    if (state.waiting?.reason === 'PodInitializing') state.waiting = { reason: 'ContainerCreating' };
    if (state.waiting?.reason === 'ContainerCreating') {
      const present = ctx.imagesOnNode.has(String(container.image)) && container.imagePullPolicy !== 'Always';
      const pullMs = present ? 0 : pullDuration(pod, container);
      if (!present) ctx.event('Normal', 'Pulling', `Pulling image "${container.image}"`, true);
      if (now < since + pullMs) break;
      const failure = present ? undefined : ctx.pullFailure?.(String(container.image));
      if (failure) {
        failPull(cs, container, since + pullMs, failure, ctx);
        break;
      }
      if (present) ctx.event('Normal', 'Pulled', `Container image "${container.image}" already present on machine`);
      else {
        const s = (pullMs / 1000).toFixed(3);
        ctx.event(
          'Normal',
          'Pulled',
          `Successfully pulled image "${container.image}" in ${s}s (${s}s including waiting). Image size: ${Math.round(50_000_000 + unit(String(container.image)) * 900_000_000)} bytes.`,
        );
      }
      ctx.imagesOnNode.add(String(container.image));
      start(cs, container, since + pullMs, ctx);
      continue;
    }
    if (state.running) {
      const started = Date.parse(state.running.startedAt);
      const program = programOf(pod, container, cs.restartCount, ctx.cluster);
      if (program.exitAfterMs === undefined || now < started + program.exitAfterMs) break;
      const finished = seconds(started + program.exitAfterMs);
      const terminated = {
        exitCode: program.exitCode,
        reason: program.exitCode === 0 ? 'Completed' : 'Error',
        startedAt: state.running.startedAt,
        finishedAt: rfc3339(finished),
        containerID: cs.containerID,
      };
      cs.ready = false;
      cs.started = false;
      if (!ctx.restarts(program.exitCode)) {
        cs.state = { terminated };
        break;
      }
      cs.lastState = { terminated };
      cs.restartCount += 1;
      const backoff = backoffAfter(cs);
      cs.state = {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off ${formatBackoff(backoff)} restarting failed container=${cs.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
        },
      };
      ctx.event(
        'Warning',
        'BackOff',
        `Back-off restarting failed container ${cs.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
      );
      continue;
    }
    if (state.waiting?.reason === 'ErrImagePull' || state.waiting?.reason === 'ImagePullBackOff') {
      const failure = ctx.pullFailure?.(String(container.image));
      if (failure) {
        failPull(cs, container, since + pullDuration(pod, container), failure, ctx);
        break;
      }
      // The fault is gone: the next attempt (this pass of the kubelet; assumed, not at the back-off's end) pulls.
      ctx.event(
        'Normal',
        'Pulled',
        `Successfully pulled image "${container.image}" in 2.000s (2.000s including waiting).`,
      );
      ctx.imagesOnNode.add(String(container.image));
      start(cs, container, now, ctx);
      continue;
    }
    if (state.waiting?.reason === 'CrashLoopBackOff') {
      const restartAt = Date.parse(cs.lastState.terminated.finishedAt) + backoffAfter(cs);
      if (now < restartAt) break;
      ctx.event('Normal', 'Pulled', `Container image "${container.image}" already present on machine`);
      start(cs, container, restartAt, ctx);
      continue;
    }
    break;
  }
  return cs;
}

/** How long pulling an image takes (2–6 s, fixed per pod and container). */
const pullDuration = (pod: KubeObject, container: Any) =>
  seconds(2000 + unit(`${pod.metadata.uid}|${container.name}|pull`) * 4000);

/** `vllm/vllm-openai:v1` → `docker.io/vllm/vllm-openai:v1`, as containerd names what it resolves. */
function fullReference(image: string): string {
  const id = imageIdOf(image).replace(/@sha256:.*$/, '');
  const tag = image.includes('@') ? `@${image.split('@')[1]}` : (/:([^/:]+)$/.exec(image)?.[0] ?? ':latest');
  return `${id}${tag}`;
}

/**
 * A pull the registry refuses, as containerd and the kubelet word it: the first failure comes when the
 * pull would have finished (`firstFailure`); the kubelet then retries after a back-off of 10 s doubling
 * to 5 min. In the second after each failure the container waits in ErrImagePull, between attempts in
 * ImagePullBackOff (with the last error, as kubelets since 1.30 add it).
 */
function failPull(cs: Any, container: Any, firstFailure: number, failure: PullFailure, ctx: RunContext): void {
  const image = String(container.image);
  const ref = fullReference(image);
  const rpc =
    failure === 'not-found'
      ? `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`
      : `rpc error: code = Unknown desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`;
  let last = firstFailure;
  for (let attempt = 1; last + backoffMs(attempt) <= ctx.now; attempt++) last += backoffMs(attempt);
  const fresh = ctx.now - last < 1000;
  cs.state = fresh
    ? { waiting: { reason: 'ErrImagePull', message: rpc } }
    : { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}": ErrImagePull: ${rpc}` } };
  ctx.event('Warning', 'Failed', `Failed to pull image "${image}": ${rpc}`, false, 10_000);
  ctx.event('Warning', 'Failed', 'Error: ErrImagePull', false, 10_000);
  if (!fresh) {
    ctx.event('Normal', 'BackOff', `Back-off pulling image "${image}"`, false, 10_000);
    ctx.event('Warning', 'Failed', 'Error: ImagePullBackOff', false, 10_000);
  }
}

/** The back-off before the next restart: doubling with restarts, back to the start after a run of twice the cap (10 min). */
function backoffAfter(cs: Any): number {
  const last = cs.lastState.terminated as Any;
  return Date.parse(last.finishedAt) - Date.parse(last.startedAt) >= 2 * MAX_BACKOFF_MS
    ? backoffMs(1)
    : backoffMs(cs.restartCount);
}

function start(cs: Any, container: Any, at: number, ctx: RunContext): void {
  cs.state = { running: { startedAt: rfc3339(at) } };
  cs.started = true;
  cs.ready = !container.readinessProbe;
  cs.imageID = imageIdOf(String(container.image));
  cs.containerID = `containerd://${hexHash(`${ctx.pod.metadata.uid}|${cs.name}|${cs.restartCount}`, 64)}`;
  ctx.event('Normal', 'Created', `Created container: ${cs.name}`);
  ctx.event('Normal', 'Started', `Started container ${cs.name}`);
}

/**
 * A readiness probe passes once its initial delay (and one period) have gone by — and, for an HTTP or
 * TCP probe, once the container listens (`listensAfterMs` after its start: a model server loading its
 * weights refuses connections until then).
 */
export function probeReady(cs: Any, container: Any, now: number, listensAfterMs = 0): boolean {
  if (!cs.state?.running) return false;
  const probe = container.readinessProbe as Any | undefined;
  if (!probe) return true;
  const delay = (Number(probe.initialDelaySeconds ?? 0) + Number(probe.periodSeconds ?? 10)) * 1000;
  const dials = probe.httpGet || probe.tcpSocket || probe.grpc;
  return now >= Date.parse(cs.state.running.startedAt) + Math.max(delay, dials ? listensAfterMs : 0);
}

/** `nginx:1.27` → `docker.io/library/nginx@sha256:…`, as containerd reports pulled images. */
export function imageIdOf(image: string): string {
  const name = image.split('@')[0]!.replace(/:[^/:]+$/, '');
  const first = name.split('/')[0]!;
  const registry =
    name.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost') ? '' : 'docker.io/';
  const repo = registry && !name.includes('/') ? `library/${name}` : name;
  return `${registry}${repo}@sha256:${hexHash(image, 64)}`;
}

const formatBackoff = (ms: number) =>
  ms >= 60_000 ? `${Math.floor(ms / 60_000)}m${ms % 60_000 ? `${(ms % 60_000) / 1000}s` : '0s'}` : `${ms / 1000}s`;
