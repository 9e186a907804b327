/**
 * The features notice after a change the user asked for, as its operation stands: started while it runs, and how it
 * ended once it did (never "started" after it finished, failed or was cancelled — issue 26, item 7).
 */
export function changeOutcome(status: string | undefined): {
  type: 'success' | 'error' | 'warning' | 'info';
  text: string;
} {
  if (status === 'succeeded') return { type: 'success', text: 'The change finished.' };
  if (status === 'failed') return { type: 'error', text: 'The change failed.' };
  if (status === 'cancelled') return { type: 'warning', text: 'The change was cancelled.' };
  return { type: 'info', text: 'The change was started.' };
}
