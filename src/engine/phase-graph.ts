import type { AnyWorkflow } from './workflow.js';

/**
 * A workflow's phases as a graph: phase → the phases it needs done first. `after` names phases
 * declared earlier (so the declaration order is always a valid order to run them in, and there can
 * be no cycle); without it a phase needs the one declared just before it.
 */
export type PhaseNeeds = ReadonlyMap<string, readonly string[]>;

/** Resolves every phase's needs; throws (a programming error, at registration) on a bad graph. */
export function phaseNeeds(workflow: AnyWorkflow): PhaseNeeds {
  const needs = new Map<string, string[]>();
  workflow.phases.forEach((phase, index) => {
    if (needs.has(phase.name))
      throw new Error(`Workflow '${workflow.kind}' has two phases with the same name ('${phase.name}').`);
    const wanted = phase.after ?? (index === 0 ? [] : [workflow.phases[index - 1]!.name]);
    for (const name of wanted) {
      if (name === phase.name)
        throw new Error(`Phase '${phase.name}' of workflow '${workflow.kind}' cannot run after itself.`);
      if (!needs.has(name)) {
        const later = workflow.phases.some((p) => p.name === name);
        throw new Error(
          later
            ? `Phase '${phase.name}' of workflow '${workflow.kind}' runs after '${name}', which is declared after it: declare the phases in an order they can run in.`
            : `Phase '${phase.name}' of workflow '${workflow.kind}' runs after '${name}', which is not a phase of it.`,
        );
      }
    }
    needs.set(phase.name, [...new Set(wanted)]);
  });
  return needs;
}

/** Every phase `name` needs, directly or through others. */
export function ancestorsOf(needs: PhaseNeeds, name: string): Set<string> {
  const found = new Set<string>();
  const visit = (n: string) => {
    for (const need of needs.get(n) ?? []) {
      if (found.has(need)) continue;
      found.add(need);
      visit(need);
    }
  };
  visit(name);
  return found;
}
