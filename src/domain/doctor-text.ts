import type { DoctorReport } from './schemas/doctor.js';

/**
 * `instantstart doctor`'s report as lines a person reads (the CLI prints it, the MCP tool answers it): a verdict, then
 * the lines that are not ok first, each with its fix.
 */
export function doctorText(r: DoctorReport): string {
  const order = { missing: 0, warning: 1, ok: 2 } as const;
  const lines = [...r.lines].sort((a, b) => order[a.status] - order[b.status]);
  const notOk = r.lines.filter((l) => l.status !== 'ok').length;
  const who = r.principalArn ? ` (permissions simulated for ${r.principalArn})` : '';
  const head = r.ok
    ? `Ready: every check is ok in ${r.region}${who}.`
    : `Not ready in ${r.region}${who}: ${notOk} line${notOk === 1 ? '' : 's'} to fix.`;
  return [
    head,
    ...lines.map((l) => `${l.status.padEnd(7)} ${l.title} — ${l.detail}${l.fix ? `\n        fix: ${l.fix}` : ''}`),
  ].join('\n');
}
