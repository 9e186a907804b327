import type { StatusCause } from '../../errors.js';
import type { KubeObject } from '../../types.js';
import { invalidValue, notSupported, required } from './causes.js';
import { ruleCompileCauses } from './cel-rules.js';
import { dns1035Label, dns1123Subdomain } from './names.js';
import { isPlainObject, type Schema } from './walk.js';

/**
 * CustomResourceDefinitions as kube-apiserver validates them: a dotted group, names that fit,
 * `metadata.name` = `<plural>.<group>`, exactly one storage version, every version named in
 * `status.storedVersions` still in `spec.versions` (objects may be stored at it: a CRD that drops
 * one is refused until the objects are migrated and the status is changed), and for every version a
 * structural schema (an object at the root, a type on every specified field and array item) whose
 * `x-kubernetes-validations` rules compile (cel-rules.ts).
 */

type Any = Record<string, any>;

const KIND = /^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$/;
const PRINTER_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];

function nameCauses(names: Any): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const field of ['plural', 'singular']) {
    const value = names[field];
    if (typeof value === 'string' && value !== '')
      for (const detail of dns1035Label(value)) causes.push(invalidValue(`spec.names.${field}`, value, detail));
  }
  for (const field of ['kind', 'listKind']) {
    const value = names[field];
    if (typeof value === 'string' && value !== '' && !KIND.test(value))
      causes.push(
        invalidValue(
          `spec.names.${field}`,
          value,
          'may have mixed case, but should otherwise match: [a-z]([-a-z0-9]*[a-z0-9])?',
        ),
      );
  }
  return causes;
}

/** The structural-schema rules users meet first: types everywhere a value is specified. */
function structuralCauses(schema: Schema, at: string, root: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const free = schema['x-kubernetes-int-or-string'] === true || schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (root) {
    if (schema.type === undefined) causes.push(required(`${at}.type`, 'must not be empty at the root'));
    else if (schema.type !== 'object')
      causes.push(invalidValue(`${at}.type`, schema.type, 'must be object at the root'));
  }
  for (const [name, sub] of Object.entries(
    (isPlainObject(schema.properties) ? schema.properties : {}) as Record<string, Schema>,
  )) {
    const path = `${at}.properties[${name}]`;
    if (!isPlainObject(sub)) continue;
    if (sub.type === undefined && !sub['x-kubernetes-int-or-string'] && !sub['x-kubernetes-preserve-unknown-fields']) {
      causes.push(required(`${path}.type`, 'must not be empty for specified object fields'));
    }
    causes.push(...structuralCauses(sub, path, false));
  }
  if (isPlainObject(schema.items)) {
    const items = schema.items as Schema;
    if (
      items.type === undefined &&
      !items['x-kubernetes-int-or-string'] &&
      !items['x-kubernetes-preserve-unknown-fields']
    ) {
      causes.push(required(`${at}.items.type`, 'must not be empty for specified array items'));
    }
    causes.push(...structuralCauses(items, `${at}.items`, false));
  }
  if (isPlainObject(schema.additionalProperties)) {
    if (isPlainObject(schema.properties))
      causes.push({
        field: `${at}.additionalProperties`,
        reason: 'FieldValueForbidden',
        message: 'Forbidden: additionalProperties and properties are mutual exclusive',
      });
    causes.push(...structuralCauses(schema.additionalProperties as Schema, `${at}.additionalProperties`, false));
  }
  if (!free && schema.type === 'array' && !isPlainObject(schema.items) && !root)
    causes.push(required(`${at}.items`, 'must be specified'));
  return causes;
}

function versionCauses(v: Any, i: number, names: Set<string>): StatusCause[] {
  const at = `spec.versions[${i}]`;
  const causes: StatusCause[] = [];
  if (typeof v.name === 'string' && v.name !== '') {
    if (names.has(v.name)) causes.push(invalidValue(`${at}.name`, v.name, 'must be unique'));
    else for (const detail of dns1035Label(v.name)) causes.push(invalidValue(`${at}.name`, v.name, detail));
    names.add(v.name);
  }
  const schema = v.schema?.openAPIV3Schema;
  if (!isPlainObject(schema)) causes.push(required(`${at}.schema.openAPIV3Schema`, 'schemas are required'));
  else
    causes.push(
      ...structuralCauses(schema as Schema, `${at}.schema.openAPIV3Schema`, true),
      ...ruleCompileCauses(schema as Schema, `${at}.schema.openAPIV3Schema`),
    );
  ((Array.isArray(v.additionalPrinterColumns) ? v.additionalPrinterColumns : []) as Any[]).forEach((c, j) => {
    const col = `${at}.additionalPrinterColumns[${j}]`;
    if (!c?.name) causes.push(required(`${col}.name`));
    if (!c?.jsonPath) causes.push(required(`${col}.jsonPath`));
    if (c?.type === undefined) causes.push(required(`${col}.type`));
    else if (!PRINTER_TYPES.includes(c.type)) causes.push(notSupported(`${col}.type`, c.type, PRINTER_TYPES));
  });
  const scale = v.subresources?.scale;
  if (isPlainObject(scale)) {
    if (!scale.specReplicasPath) causes.push(required(`${at}.subresources.scale.specReplicasPath`));
    else if (!String(scale.specReplicasPath).startsWith('.spec.'))
      causes.push(
        invalidValue(
          `${at}.subresources.scale.specReplicasPath`,
          scale.specReplicasPath,
          'should be a json path under .spec',
        ),
      );
    if (!scale.statusReplicasPath) causes.push(required(`${at}.subresources.scale.statusReplicasPath`));
    else if (!String(scale.statusReplicasPath).startsWith('.status.'))
      causes.push(
        invalidValue(
          `${at}.subresources.scale.statusReplicasPath`,
          scale.statusReplicasPath,
          'should be a json path under .status',
        ),
      );
  }
  return causes;
}

export function customResourceDefinitionCauses(obj: KubeObject): StatusCause[] {
  const spec = (isPlainObject(obj.spec) ? obj.spec : {}) as Any;
  const names = (isPlainObject(spec.names) ? spec.names : {}) as Any;
  const causes: StatusCause[] = [];
  if (typeof spec.group === 'string' && spec.group !== '') {
    if (!spec.group.includes('.'))
      causes.push(invalidValue('spec.group', spec.group, 'should be a domain with at least one dot'));
    else for (const detail of dns1123Subdomain(spec.group)) causes.push(invalidValue('spec.group', spec.group, detail));
  }
  causes.push(...nameCauses(names));
  if (spec.group && names.plural && obj.metadata.name !== `${names.plural}.${spec.group}`) {
    causes.push(invalidValue('metadata.name', obj.metadata.name, 'must be spec.names.plural+"."+spec.group'));
  }
  if (spec.scope !== undefined && spec.scope !== 'Cluster' && spec.scope !== 'Namespaced')
    causes.push(notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced']));
  const versions = (Array.isArray(spec.versions) ? spec.versions : []) as Any[];
  if (versions.filter((v) => v?.storage === true).length !== 1) {
    causes.push(
      invalidValue(
        'spec.versions',
        versions.map((v) => v?.name),
        'must have exactly one version marked as storage version',
      ),
    );
  }
  const seen = new Set<string>();
  versions.forEach((v, i) => isPlainObject(v) && causes.push(...versionCauses(v, i, seen)));
  const stored = (
    isPlainObject(obj.status) && Array.isArray(obj.status.storedVersions) ? obj.status.storedVersions : []
  ) as unknown[];
  stored.forEach((v, i) => {
    if (!versions.some((x) => x?.name === v))
      causes.push(invalidValue(`status.storedVersions[${i}]`, v, 'must appear in spec.versions'));
  });
  return causes;
}
