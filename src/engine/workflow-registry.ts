import type { InputSchema } from './engine-options.js';
import { phaseNeeds, type PhaseNeeds } from './phase-graph.js';
import type { AnyWorkflow, PhaseDefinition } from './workflow.js';

/**
 * The workflows an engine runs, by kind, each with its phase graph resolved once. Registration refuses
 * programming errors at start-up: a kind registered twice, a kind outside the engine's kinds, a phase graph
 * that names unknown or later phases, a phase without a usable deadline.
 */
export class WorkflowRegistry {
  private readonly workflows = new Map<string, AnyWorkflow>();
  private readonly graphs = new Map<string, PhaseNeeds>();

  /** `kinds`: kind → input schema (the product's OPERATION_KINDS); omitted, any kind may be registered. */
  constructor(private readonly kinds?: { readonly [kind: string]: InputSchema<unknown> }) {}

  register(workflow: AnyWorkflow): void {
    if (this.workflows.has(workflow.kind)) throw new Error(`Workflow '${workflow.kind}' is already registered.`);
    if (this.kinds && !Object.hasOwn(this.kinds, workflow.kind)) {
      throw new Error(
        `Workflow '${workflow.kind}' is not an operation kind (known: ${Object.keys(this.kinds).join(', ')}); add its input schema to the kinds map.`,
      );
    }
    for (const phase of workflow.phases) assertDeadline(workflow.kind, phase);
    this.graphs.set(workflow.kind, phaseNeeds(workflow));
    this.workflows.set(workflow.kind, workflow);
  }

  /** Registers every workflow, then checks that every kind of the engine's kinds has one. */
  registerAll(workflows: readonly AnyWorkflow[]): void {
    for (const workflow of workflows) this.register(workflow);
    const missing = Object.keys(this.kinds ?? {}).filter((kind) => !this.workflows.has(kind));
    if (missing.length) throw new Error(`No workflow is registered for the operation kind(s) ${missing.join(', ')}.`);
  }

  get(kind: string): AnyWorkflow | undefined {
    return this.workflows.get(kind);
  }

  has(kind: string): boolean {
    return this.workflows.has(kind);
  }

  /** The kind's phase graph (phase-graph.ts). */
  needs(kind: string): PhaseNeeds | undefined {
    return this.graphs.get(kind);
  }

  kindNames(): string[] {
    return [...this.workflows.keys()];
  }
}

/**
 * Every phase declares finite deadlines for its act and its wait (workflow.ts → PhaseDeadline), the wait's no
 * shorter than the phase's expected duration: a wait that may never end, or that fails before it usually ends, is a
 * mistake in the declaration, refused at start-up.
 */
function assertDeadline(kind: string, phase: PhaseDefinition<unknown, unknown>): void {
  const { actSeconds, waitSeconds } = phase.deadline ?? {};
  const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;
  if (!finite(actSeconds) || !finite(waitSeconds) || waitSeconds < phase.expectedSeconds) {
    throw new Error(
      `Phase '${phase.name}' of workflow '${kind}' needs deadline: { actSeconds, waitSeconds }, finite and positive, ` +
        `the wait at least its expectedSeconds (${phase.expectedSeconds}); got ${JSON.stringify(phase.deadline)}.`,
    );
  }
}
