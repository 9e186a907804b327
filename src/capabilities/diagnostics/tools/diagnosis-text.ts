import type { Diagnosis } from '../../../domain/schemas/diagnostics.js';

/** A diagnosis as an agent reads it: the summary, each finding with its evidence, the suggestions (mutating marked). */
export function diagnosisText(d: Diagnosis): string {
  const lines = [d.summary];
  if (d.escalation)
    lines.push(
      `Escalation: ${d.escalation.stage}${d.escalation.next ? ` (next: ${d.escalation.next})` : ''} — ${d.escalation.why}`,
    );
  for (const f of d.findings) {
    lines.push(`[${f.severity}] ${f.code}: ${f.title}`);
    for (const e of f.evidence.slice(0, 8)) lines.push(`  - ${e.source}: ${e.detail}`);
  }
  if (d.suggestions.length) lines.push('Suggested (not run; ask the user before any MUTATING one):');
  for (const s of d.suggestions)
    lines.push(`  ${s.mutating ? 'MUTATING ' : ''}${s.kind}: ${s.command} — ${s.description}`);
  return lines.join('\n');
}
