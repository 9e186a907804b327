import { type CloudClockReading, cloudNow } from '@domain/cloud-clock.js';
import { useConfig, useReadConfig } from '@kit/api/server-config.js';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/**
 * The one rule for clocks on every page: what the cloud timestamps (jobs, nodes, events, clusters, objects) is shown
 * in the cloud's time and its age is measured against the cloud's clock (read from the server, run forward at its
 * speed); on the sandbox those times are labelled "sandbox time". A page about the cloud's state says every time on
 * that clock, even when it last read the cloud ("Updated …", useCloudTimeOf): it never mixes the two clocks. Times the
 * server itself keeps (operations) are wall-clock times and carry no label. Components:
 * web/kit/components/CloudTime.tsx.
 */

/** Re-read now and then: the sandbox's speed can change and its clock can jump ahead (POST /_sandbox/clock). */
const REREAD_MS = 30_000;

/** The latest reading of the cloud's clock (undefined until the first answer). */
function useClockReading(): CloudClockReading | undefined {
  const readConfig = useReadConfig();
  const read = useQuery({
    queryKey: ['cloud-clock'],
    queryFn: async () => {
      const config = await readConfig();
      return { cloudMs: Date.parse(config.cloudTime), localMs: Date.now(), speed: config.clockSpeed };
    },
    refetchInterval: REREAD_MS,
    staleTime: REREAD_MS,
  });
  return read.data;
}

/** The cloud's time now (epoch ms), re-computed every `intervalMs`; the wall clock until the first reading. */
export function useCloudNow(intervalMs = 1000): number {
  const reading = useClockReading();
  const [local, setLocal] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setLocal(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return reading ? cloudNow(reading, local) : local;
}

/**
 * A moment the page saw on the reader's wall clock (a query's `dataUpdatedAt`) as the cloud's clock read it then (epoch
 * ms), undefined until the clock was read: "Updated …" beside events stamped by the same clock (CloudClockAt,
 * CloudTime.tsx).
 */
export function useCloudTimeOf(): ((localMs: number) => number) | undefined {
  const reading = useClockReading();
  // Until the first reading the cloud's time of that moment is unknown: nothing, rather than the wall clock under a
  // cloud label.
  return reading ? (localMs) => cloudNow(reading, localMs) : undefined;
}

/** Whether cloud times need the "sandbox time" label: on the sandbox, whose clock is not the wall clock. */
export function useSandboxTime(): boolean {
  return useConfig().data?.cloud === 'sandbox';
}

/** "Created" → "Created (sandbox time)" on the sandbox: the label of a column or field holding cloud times. */
export function useCloudTimeLabel(): (label: string) => string {
  const sandbox = useSandboxTime();
  return (label) => (sandbox ? `${label} (sandbox time)` : label);
}

/**
 * A sentence for views that show the cloud's own times, when that clock runs faster than the wall clock (the sandbox
 * at `--sandbox-speed` N): without saying so a user reads "in 50 minutes" as a bug. Empty on AWS.
 */
export function useCloudClockNote(): string {
  const config = useConfig().data;
  const speed = config?.clockSpeed ?? 1;
  if (config?.cloud !== 'sandbox') return '';
  const faster =
    speed === 1 ? '' : `, which runs ${Number.isInteger(speed) ? speed : speed.toFixed(1)}× faster than real time`;
  return `Times marked "sandbox time" come from the sandbox's clock${faster}, so they run ahead of yours; ages are measured on that clock.`;
}
