/** A download's status as the Models tab words it (issue 26, item 7: never "Downloading" once its Job succeeded). */
import type { ModelDownloadView } from '@domain/schemas/model-downloads.js';

type Indicator = 'success' | 'error' | 'warning' | 'info' | 'stopped' | 'pending' | 'in-progress' | 'loading';

const STATUS: Record<string, { type: Indicator; text: string }> = {
  pending: { type: 'pending', text: 'Pending' },
  running: { type: 'in-progress', text: 'Downloading' },
  cancelling: { type: 'in-progress', text: 'Cancelling' },
  succeeded: { type: 'success', text: 'Downloaded' },
  failed: { type: 'error', text: 'Failed' },
  cancelled: { type: 'stopped', text: 'Cancelled' },
};

/** A running download whose Job already Succeeded is past downloading: it lists what landed. */
export function downloadStatus(d: Pick<ModelDownloadView, 'status' | 'job'>): { type: Indicator; text: string } {
  if (d.status === 'running' && d.job?.state === 'Succeeded')
    return { type: 'in-progress', text: 'Downloaded, listing the files' };
  return STATUS[d.status] ?? { type: 'info', text: d.status };
}
