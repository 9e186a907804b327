import { formatAge } from '../../../src/domain/cloud-clock.js';
import { useCloudNow, useSandboxTime } from '../hooks/cloud-clock.js';
import { formatTime } from '../lib/format.js';

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
export function CloudAge({ iso, intervalMs = 1000, testId }: { iso: string | undefined; intervalMs?: number; testId?: string }) {
  const now = useCloudNow(intervalMs);
  const sandbox = useSandboxTime();
  return (
    <time dateTime={iso} data-clock={sandbox ? 'sandbox' : 'cloud'} title={iso ? `${formatTime(iso)}${sandbox ? ' (sandbox time)' : ''}` : undefined} data-testid={testId}>
      {formatAge(iso, now)}
    </time>
  );
}
