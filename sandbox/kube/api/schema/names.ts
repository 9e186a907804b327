import type { StatusCause } from '../../errors.js';
import type { KubeObject, ResourceType } from '../../types.js';
import { invalidValue, required } from './causes.js';

/**
 * Object names, label keys and values, annotation keys and finalizers, checked with the API
 * server's rules and reported in its words (each rule's message names its regular expression).
 */

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MESSAGE =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const QUALIFIED_MESSAGE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const tooLong = (max: number) => `must be no more than ${max} characters`;

export function dns1123Subdomain(value: string): string[] {
  return [...(value.length > 253 ? [tooLong(253)] : []), ...(SUBDOMAIN.test(value) ? [] : [SUBDOMAIN_MESSAGE])];
}

export function dns1123Label(value: string): string[] {
  return [...(value.length > 63 ? [tooLong(63)] : []), ...(LABEL.test(value) ? [] : [LABEL_MESSAGE])];
}

export function dns1035Label(value: string): string[] {
  return [...(value.length > 63 ? [tooLong(63)] : []), ...(DNS1035.test(value) ? [] : [DNS1035_MESSAGE])];
}

/** RBAC objects may be named anything a URL path segment can carry (`system:controller:…`). */
function pathSegmentName(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  return ['/', '%'].filter((c) => value.includes(c)).map((c) => `may not contain '${c}'`);
}

/** A label or annotation key: an optional DNS subdomain prefix and `/`, then a name of up to 63 characters. */
export function qualifiedName(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2)
    return [
      `a qualified name ${QUALIFIED_MESSAGE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  const [prefix, name] = parts.length === 2 ? [parts[0]!, parts[1]!] : ['', parts[0]!];
  const errors: string[] = [];
  if (parts.length === 2) {
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else errors.push(...dns1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (name.length > 63) errors.push(`name part ${tooLong(63)}`);
  if (name.length > 0 && !QUALIFIED_NAME.test(name)) errors.push(`name part ${QUALIFIED_MESSAGE}`);
  return errors;
}

export function labelValue(value: string): string[] {
  return [...(value.length > 63 ? [tooLong(63)] : []), ...(LABEL_VALUE.test(value) ? [] : [LABEL_VALUE_MESSAGE])];
}

/** How a kind's names are checked: namespaces are labels, services DNS-1035 labels, RBAC objects path segments. */
function nameRule(type: ResourceType): (name: string) => string[] {
  if (type.crd) return dns1123Subdomain;
  if (type.group === '' && type.resource === 'namespaces') return dns1123Label;
  if (type.group === '' && type.resource === 'services') return dns1035Label;
  if (type.group === 'rbac.authorization.k8s.io') return pathSegmentName;
  return dns1123Subdomain;
}

const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);
const ANNOTATIONS_MAX_BYTES = 256 * 1024;

export function validateMetadata(type: ResourceType, obj: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const meta = obj.metadata ?? {};
  const rule = nameRule(type);
  if (typeof meta.name === 'string' && meta.name !== '') {
    for (const detail of rule(meta.name)) causes.push(invalidValue('metadata.name', meta.name, detail));
  } else if (typeof meta.generateName === 'string' && meta.generateName !== '') {
    // The random suffix is appended to the prefix, so a trailing '-' is fine there.
    const prefix = meta.generateName.replace(/-$/, 'a');
    for (const detail of rule(prefix)) causes.push(invalidValue('metadata.generateName', meta.generateName, detail));
  } else {
    causes.push(required('metadata.name', 'name or generateName is required'));
  }
  for (const [key, value] of Object.entries(meta.labels ?? {})) {
    for (const detail of qualifiedName(key)) causes.push(invalidValue('metadata.labels', key, detail));
    if (typeof value === 'string')
      for (const detail of labelValue(value)) causes.push(invalidValue('metadata.labels', value, detail));
  }
  let annotationBytes = 0;
  for (const [key, value] of Object.entries(meta.annotations ?? {})) {
    for (const detail of qualifiedName(key.toLowerCase()))
      causes.push(invalidValue('metadata.annotations', key, detail));
    annotationBytes += Buffer.byteLength(key) + (typeof value === 'string' ? Buffer.byteLength(value) : 0);
  }
  if (annotationBytes > ANNOTATIONS_MAX_BYTES)
    causes.push({
      field: 'metadata.annotations',
      reason: 'FieldValueTooLong',
      message: `Too long: must have at most ${ANNOTATIONS_MAX_BYTES} bytes`,
    });
  (meta.finalizers ?? []).forEach((f, i) => {
    if (typeof f !== 'string' || STANDARD_FINALIZERS.has(f)) return;
    const errors = qualifiedName(f);
    if (errors.length > 0)
      for (const detail of errors) causes.push(invalidValue(`metadata.finalizers[${i}]`, f, detail));
    else if (!f.includes('/'))
      causes.push(
        invalidValue(
          `metadata.finalizers[${i}]`,
          f,
          'name is neither a standard finalizer name nor is it fully qualified',
        ),
      );
  });
  return causes;
}
