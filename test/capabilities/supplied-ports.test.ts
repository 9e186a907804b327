import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineCapability, type ServiceDeps } from '../../src/capabilities/capability.js';
import { SuppliedPorts, supplyPorts } from '../../src/capabilities/supplied-ports.js';

interface NotesPort {
  notes(): string[];
}

/** A capability with a store of its own, as a new one would declare it. */
const notebook = defineCapability<{ count(): number }, { notes: NotesPort }>({
  name: 'notebook',
  ports: { notes: 'the notes the server keeps' },
  service: (deps) => ({ count: () => deps.notes.notes().length }),
});
const plain = defineCapability({ name: 'plain' });

describe('the ports the composition root supplies, by capability', () => {
  it('hands a capability the ports it declares, beside the common deps', () => {
    const ports = new SuppliedPorts([supplyPorts(notebook, { notes: { notes: () => ['a', 'b'] } })]);
    ports.check([notebook, plain]);
    const common = {} as ServiceDeps;
    const service = notebook.service!({ ...common, ...(ports.of(notebook) as { notes: NotesPort }) });
    assert.equal(service.count(), 2);
    assert.deepEqual(ports.of(plain), {}, 'a capability that declares none gets none');
  });

  it('refuses to start when a declared port is not supplied, naming it and its capability', () => {
    const ports = new SuppliedPorts([]);
    assert.throws(
      () => ports.check([plain, notebook]),
      /supplies no notes \(the notes the server keeps\) for capability 'notebook'/,
    );
    assert.throws(() => ports.of(notebook), /for capability 'notebook'/);
  });

  it("refuses a capability's ports supplied twice", () => {
    const notes = { notes: () => [] };
    assert.throws(
      () => new SuppliedPorts([supplyPorts(notebook, { notes }), supplyPorts(notebook, { notes })]),
      /capability 'notebook' are supplied twice/,
    );
  });
});
