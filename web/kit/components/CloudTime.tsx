import { formatAge } from '@domain/cloud-clock.js';
import { useCloudNow, useCloudTimeOf, useSandboxTime } from '@kit/hooks/cloud-clock.js';
import { formatClock, formatTime } from '@kit/lib/format.js';

/**
 * A time the cloud stamped (a launch, an event, a creation), in the cloud's clock: on the sandbox its tooltip and
 * `data-clock` say "sandbox time" (the column or field label says it too: useCloudTimeLabel).
 */
export function CloudTime({ iso }: { iso: string | undefined }) {
  const sandbox = useSandboxTime();
  if (!iso) return <>—</>;
  return (
    <time dateTime={iso} data-clock={sandbox ? 'sandbox' : 'cloud'} title={sandbox ? 'Sandbox time' : undefined}>
      {formatTime(iso)}
    </time>
  );
}

/** How long ago the cloud stamped `iso`, measured on the cloud's clock and moving (every `intervalMs`). */
export function CloudAge({
  iso,
  intervalMs = 1000,
  testId,
}: {
  iso: string | undefined;
  intervalMs?: number;
  testId?: string;
}) {
  const now = useCloudNow(intervalMs);
  const sandbox = useSandboxTime();
  return (
    <time
      dateTime={iso}
      data-clock={sandbox ? 'sandbox' : 'cloud'}
      title={iso ? `${formatTime(iso)}${sandbox ? ' (sandbox time)' : ''}` : undefined}
      data-testid={testId}
    >
      {formatAge(iso, now)}
    </time>
  );
}

/**
 * When the page last read the cloud (`localMs`: the reader's wall clock, a query's `dataUpdatedAt`), on the cloud's
 * clock like the times beside it, between `lead` and `tail`: " Updated 10:12:05 (sandbox time)." on the sandbox.
 * Nothing until the cloud's clock was read.
 */
export function CloudClockAt({
  localMs,
  lead,
  tail,
  testId,
}: {
  localMs: number;
  lead: string;
  tail: string;
  testId?: string;
}) {
  const cloudTimeOf = useCloudTimeOf();
  const sandbox = useSandboxTime();
  if (!cloudTimeOf) return null;
  const iso = new Date(cloudTimeOf(localMs)).toISOString();
  return (
    <>
      {lead}
      <time dateTime={iso} data-clock={sandbox ? 'sandbox' : 'cloud'} data-testid={testId}>
        {`${formatClock(iso)}${sandbox ? ' (sandbox time)' : ''}`}
      </time>
      {tail}
    </>
  );
}
