import type { InputSchema } from './engine-options.js';
import { phaseNeeds, type PhaseNeeds } from './phase-graph.js';
import type { AnyWorkflow } from './workflow.js';

/**
 * The workflows an engine runs, by kind, each with its phase graph resolved once. Registration refuses
 * programming errors at start-up: a kind registered twice, a kind outside the engine's kinds, a phase graph
 * that names unknown or later phases.
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
