import type { ResourceType } from './types.js';

/**
 * A failure the API answers with a `Status` object, as kube-apiserver does
 * (`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":…,"code":…}`).
 */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export class KubeError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: {
      name?: string;
      group?: string;
      kind?: string;
      causes?: StatusCause[];
      retryAfterSeconds?: number;
    },
  ) {
    super(message);
    this.name = 'KubeError';
  }

  toStatus(): Record<string, unknown> {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

export const isKubeError = (e: unknown): e is KubeError => e instanceof KubeError;

const qualified = (t: ResourceType) => (t.group ? `${t.resource}.${t.group}` : t.resource);

export const notFound = (t: ResourceType, name: string) =>
  new KubeError(404, 'NotFound', `${qualified(t)} "${name}" not found`, { name, group: t.group, kind: t.resource });

export const alreadyExists = (t: ResourceType, name: string) =>
  new KubeError(409, 'AlreadyExists', `${qualified(t)} "${name}" already exists`, {
    name,
    group: t.group,
    kind: t.resource,
  });

export const conflict = (
  t: ResourceType,
  name: string,
  why = 'the object has been modified; please apply your changes to the latest version and try again',
) =>
  new KubeError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(t)} "${name}": ${why}`, {
    name,
    group: t.group,
    kind: t.resource,
  });

/** 422 naming every bad field, as the API server's field validation does. */
export const invalid = (t: ResourceType, name: string, causes: StatusCause[]) =>
  new KubeError(
    422,
    'Invalid',
    `${t.kind}${t.group ? `.${t.group}` : ''} "${name}" is invalid: ${causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message)).join(', ')}`,
    {
      name,
      group: t.group,
      kind: t.kind,
      causes: causes.map((c) => ({ reason: c.reason ?? 'FieldValueInvalid', message: c.message, field: c.field })),
    },
  );

export const badRequest = (message: string) => new KubeError(400, 'BadRequest', message);
export const methodNotAllowed = (message: string) => new KubeError(405, 'MethodNotAllowed', message);
export const gone = (message: string) => new KubeError(410, 'Expired', message);
export const unauthorized = () => new KubeError(401, 'Unauthorized', 'Unauthorized');
export const forbidden = (
  user: string,
  verb: string,
  t: ResourceType | undefined,
  namespace: string | undefined,
  why = '',
  subresource?: string,
) =>
  new KubeError(
    403,
    'Forbidden',
    `${t ? qualified(t) : 'resource'} is forbidden: User "${user}" cannot ${verb} resource "${t?.resource ?? ''}${subresource ? `/${subresource}` : ''}" in API group "${t?.group ?? ''}"${namespace ? ` in the namespace "${namespace}"` : ' at the cluster scope'}${why ? `: ${why}` : ''}`,
    { ...(t ? { group: t.group, kind: t.resource } : {}) },
  );
