import type { Capability } from './capability.js';

/** What the kit reads of a capability here: its name and the ports it declares (whatever its service's type). */
type DeclaringPorts = Pick<Capability, 'name'> & { readonly ports?: { readonly [name: string]: string } };

/** One capability's own ports as the composition root builds them. */
export interface PortSupply {
  readonly capability: string;
  readonly ports: object;
}

/**
 * The composition root's answer to what a capability declares in `ports`, type-checked against its port types:
 *
 * @example
 * supplyPorts(storage, { keptStorages: stores.keptStorages })
 */
export function supplyPorts<S, P extends object>(capability: Capability<S, P>, ports: P): PortSupply {
  return { capability: capability.name, ports };
}

/**
 * The ports the composition root supplies, by capability. `of(capability)` is what its workflows and service get beside
 * the common deps; a port a capability declares and the root does not supply is a wiring error that stops the start.
 */
export class SuppliedPorts {
  private readonly byCapability = new Map<string, object>();

  constructor(supplies: readonly PortSupply[]) {
    for (const { capability, ports } of supplies) {
      if (this.byCapability.has(capability))
        throw new Error(`The ports of capability '${capability}' are supplied twice.`);
      this.byCapability.set(capability, ports);
    }
  }

  /** Throws naming every port these capabilities declare that is not supplied (at start-up, before anything runs). */
  check(capabilities: readonly DeclaringPorts[]): void {
    const missing = capabilities.flatMap((c) => this.missing(c));
    if (missing.length) throw new Error(`The composition root supplies no ${missing.join('; no ')}.`);
  }

  /** The capability's own ports (none when it declares none). */
  of(capability: DeclaringPorts): object {
    this.check([capability]);
    return this.byCapability.get(capability.name) ?? {};
  }

  private missing(capability: DeclaringPorts): string[] {
    const declared = capability.ports ?? {};
    const supplied = this.byCapability.get(capability.name) ?? {};
    return Object.entries(declared)
      .filter(([name]) => !(name in supplied))
      .map(([name, what]) => `${name} (${what}) for capability '${capability.name}'`);
  }
}
