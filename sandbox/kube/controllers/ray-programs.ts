import type { KubeObject } from '../types.js';
import { commandLine, inRange, type Line, type Program } from './program-lines.js';
import { trainingProgram, trainingVariantOf } from './training-programs.js';
import type { Any } from './util.js';

/**
 * What the KubeRay pods run: `ray start` on the head and the workers (start-up lines, then it blocks
 * until stopped), and the RayJob submitter's `ray job submit … -- <entrypoint>`, which prints the
 * submission and then tails the entrypoint's output — a simulated trainer (VERL for
 * `python3 -m verl.trainer.main_ppo`, training-recipes.ts) — until it ends, exiting 0 when the Ray
 * job succeeded and 1 when it failed.
 */

export const isRayStart = (container: Any) => /\bray\s+start\b/.test(commandLine(container));
export const isRayJobSubmit = (container: Any) => /\bray\s+job\s+submit\b/.test(commandLine(container));

export function rayNodeProgram(pod: KubeObject, container: Any): Program {
  const head = /--head\b/.test(commandLine(container));
  const ip = String((pod.status as Any | undefined)?.podIP ?? '10.0.0.1');
  const banner = [
    ...(head ? ['Usage stats collection is disabled.', ''] : []),
    `Local node IP: ${ip}`,
    '',
    '--------------------',
    'Ray runtime started.',
    '--------------------',
    '',
    ...(head
      ? [
          'Next steps',
          '  To add another node to this Ray cluster, run',
          `    ray start --address='${ip}:6379'`,
          '',
          '  To submit a Ray job using the Ray Jobs CLI:',
          `    RAY_ADDRESS='http://${ip}:8265' ray job submit --working-dir . -- python my_script.py`,
          '',
        ]
      : []),
    '  To terminate the Ray runtime, run',
    '    ray stop',
    '',
    '--block',
    '  This command will now block forever until terminated by a signal.',
  ];
  return {
    lines: (t0, from, until) =>
      inRange(
        banner.map((text, k) => ({ at: t0 + 1500 + (k > 3 ? 1500 : 0), text })),
        from,
        until,
      ),
    exitCode: 0,
  };
}

const TAIL_DELAY_MS = 3000;

export function raySubmitProgram(pod: KubeObject, container: Any, run: number): Program {
  const line = commandLine(container);
  const id =
    /--submission-id[= ]+(\S+)/.exec(line)?.[1] ??
    `raysubmit_${String(pod.metadata.uid ?? '')
      .replace(/-/g, '')
      .slice(0, 16)}`;
  const address = /--address[= ]+(\S+)/.exec(line)?.[1] ?? 'http://127.0.0.1:8265';
  const inner = trainingProgram(pod, container, run, trainingVariantOf(container) ?? 'training');
  const ended = inner.exitAfterMs !== undefined ? TAIL_DELAY_MS + inner.exitAfterMs : undefined;
  const bar = '-'.repeat(42);
  return {
    lines(t0, from, until) {
      const head: Line[] = [
        { at: t0, text: `Job submission server address: ${address}` },
        { at: t0 + 500, text: bar },
        { at: t0 + 500, text: `Job '${id}' submitted successfully` },
        { at: t0 + 500, text: bar },
        { at: t0 + 1000, text: 'Tailing logs until the job exits (disable with --no-wait):' },
      ];
      const tail = inner.lines(t0 + TAIL_DELAY_MS, Math.max(from, t0 + TAIL_DELAY_MS), until);
      const end: Line[] =
        ended === undefined
          ? []
          : [bar, `Job '${id}' ${inner.exitCode === 0 ? 'succeeded' : 'failed'}`, bar].map((text) => ({
              at: t0 + ended,
              text,
            }));
      return [...inRange(head, from, until), ...tail, ...inRange(end, from, until)];
    },
    ...(ended !== undefined ? { exitAfterMs: ended + 500 } : {}),
    exitCode: inner.exitCode === 0 ? 0 : 1,
  };
}
