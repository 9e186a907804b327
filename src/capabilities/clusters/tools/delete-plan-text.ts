import type { DeletePlan } from '../../../domain/schemas/clusters.js';

/** A delete plan as lines an agent can show the user: what goes, and what stays with why. */
export function deletePlanText(plan: Pick<DeletePlan, 'deletes' | 'keeps'>): string {
  const lines = [`Deletes (${plan.deletes.length}):`, ...plan.deletes.map((d) => `- ${d.kind} ${d.name}`)];
  lines.push(plan.keeps.length ? `Keeps (${plan.keeps.length}):` : 'Keeps: nothing.');
  for (const k of plan.keeps) lines.push(`- ${k.kind} ${k.name}: ${k.reason ?? 'kept'}`);
  return lines.join('\n');
}
