import type { ResourceType } from '../types.js';
import { DELETE_OPTIONS, PATCH, STATUS } from './schema/builtin-schemas.js';
import { REF, type Schema } from './schema/walk.js';

/**
 * The OpenAPI v3 path items of resource types: collection, item, all-namespaces list and the
 * `status`, `scale` and `log` subresources, each operation tagged with `x-kubernetes-action` and
 * `x-kubernetes-group-version-kind`. Every write declares `dryRun`, `fieldManager` and
 * `fieldValidation`: kubectl looks for `fieldValidation` on a kind's PATCH operation to decide that
 * the server validates fields, and then skips its own client-side validation.
 */

type Gvk = { group: string; version: string; kind: string };

const query = (name: string, type: string, description: string): Schema => ({
  name,
  in: 'query',
  description,
  schema: { type, uniqueItems: true },
});
const pathParam = (name: string, description: string): Schema => ({
  name,
  in: 'path',
  description,
  required: true,
  schema: { type: 'string', uniqueItems: true },
});

const PRETTY = query('pretty', 'string', "If 'true', the output is pretty printed.");
const WRITE = [
  query('dryRun', 'string', "When 'All', the request is checked and answered but nothing is stored."),
  query('fieldManager', 'string', 'The name of the actor making the change, recorded in managedFields.'),
  query(
    'fieldValidation',
    'string',
    'What the server does with unknown or duplicate fields in the body: Ignore (drop them), Warn (drop them with a warning; the default) or Strict (refuse the request).',
  ),
];
const LIST = [
  query('allowWatchBookmarks', 'boolean', 'Whether a watch may send BOOKMARK events.'),
  query('continue', 'string', "The token of the next page, from the previous page's metadata.continue."),
  query(
    'fieldSelector',
    'string',
    'Select objects by fields (metadata.name, metadata.namespace, status.phase, spec.nodeName).',
  ),
  query('labelSelector', 'string', 'Select objects by labels.'),
  query('limit', 'integer', 'The most objects to return in one page.'),
  query('resourceVersion', 'string', 'Which version of the collection to read or to watch from.'),
  query('resourceVersionMatch', 'string', 'How resourceVersion applies to a list.'),
  query('timeoutSeconds', 'integer', 'How long a list or watch call may take.'),
  query('watch', 'boolean', 'Stream changes (ADDED, MODIFIED, DELETED) instead of returning a list.'),
];
const DELETE = [
  query('dryRun', 'string', "When 'All', the request is checked and answered but nothing is deleted."),
  query('gracePeriodSeconds', 'integer', 'Seconds before the object is deleted.'),
  query(
    'propagationPolicy',
    'string',
    'Whether and how dependents are garbage collected: Orphan, Background or Foreground.',
  ),
];
const LOG = [
  query('container', 'string', 'The container whose log to read; optional when the pod has one container.'),
  query('follow', 'boolean', 'Keep streaming the log as it grows.'),
  query('limitBytes', 'integer', 'Stop after this many bytes.'),
  query('previous', 'boolean', 'The log of the previous, terminated instance of the container.'),
  query('sinceSeconds', 'integer', 'Only lines from the last seconds.'),
  query('tailLines', 'integer', 'Only the last lines.'),
  query('timestamps', 'boolean', 'Prefix every line with its RFC3339 timestamp.'),
];

const ref = (name: string): Schema => ({ $ref: `${REF}${name}` });
const content = (schema: Schema, types = ['application/json', 'application/yaml']) =>
  Object.fromEntries(types.map((t) => [t, { schema }]));
const PATCH_TYPES = [
  'application/apply-patch+yaml',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];
/** Custom resources take no strategic merge patch; kubectl reads this list to choose its apply patch (merge patch for them). */
const CUSTOM_PATCH_TYPES = PATCH_TYPES.filter((m) => !m.includes('strategic'));

/** `''` → Core, `rbac.authorization.k8s.io` → RbacAuthorization, `stable.example.com` → StableExampleCom. */
function groupWord(group: string): string {
  const words = (group || 'core').replace(/\.k8s\.io$/, '').split(/[.-]/);
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

interface OperationSpec {
  action: string;
  verb: string;
  description: string;
  parameters: Schema[];
  gvk: Gvk;
  response: Schema;
  responseTypes?: string[];
  codes: string[];
  body?: Schema;
  bodyTypes?: string[];
}

function operation(t: ResourceType, suffix: string, o: OperationSpec): Schema {
  const namespaced = t.namespaced && !suffix.includes('ForAllNamespaces') ? 'Namespaced' : '';
  const word = o.verb === 'deletecollection' ? 'deleteCollection' : o.verb;
  return {
    tags: [`${groupWord(t.group).charAt(0).toLowerCase()}${groupWord(t.group).slice(1)}_${t.version}`],
    description: o.description,
    operationId: `${word}${groupWord(t.group)}${t.version.charAt(0).toUpperCase()}${t.version.slice(1)}${namespaced}${t.kind}${suffix}`,
    parameters: o.parameters,
    ...(o.body ? { requestBody: { content: content(o.body, o.bodyTypes), required: true } } : {}),
    responses: {
      ...Object.fromEntries(
        o.codes.map((code) => [
          code,
          {
            description: code === '201' ? 'Created' : code === '202' ? 'Accepted' : 'OK',
            content: content(o.response, o.responseTypes),
          },
        ]),
      ),
      '401': { description: 'Unauthorized' },
    },
    'x-kubernetes-action': o.action,
    'x-kubernetes-group-version-kind': o.gvk,
  };
}

/** The path items of one resource type (`schemaName` names its kind's component, `listName` its list's). */
export function resourcePaths(t: ResourceType, schemaName: string, listName: string): Record<string, Schema> {
  const prefix = t.group ? `/apis/${t.group}/${t.version}` : `/api/${t.version}`;
  const collection = `${prefix}${t.namespaced ? '/namespaces/{namespace}' : ''}/${t.resource}`;
  const scope = t.namespaced ? [pathParam('namespace', "The object's namespace.")] : [];
  const named = [...scope, pathParam('name', `The name of the ${t.kind}.`)];
  const gvk = { group: t.group, version: t.version, kind: t.kind };
  const kind = ref(schemaName);
  const base = (
    verb: string,
    action: string,
    description: string,
    parameters: Schema[],
    codes: string[],
    extra: Partial<OperationSpec> = {},
  ): OperationSpec => ({
    verb,
    action,
    description,
    parameters: [...parameters, PRETTY],
    gvk,
    response: kind,
    codes,
    ...extra,
  });
  const paths: Record<string, Schema> = {
    [collection]: {
      parameters: scope,
      get: operation(
        t,
        '',
        base('list', 'list', `list or watch objects of kind ${t.kind}`, LIST, ['200'], { response: ref(listName) }),
      ),
      post: operation(
        t,
        '',
        base('create', 'post', `create a ${t.kind}`, WRITE, ['200', '201', '202'], { body: kind }),
      ),
      delete: operation(
        t,
        '',
        base(
          'deletecollection',
          'deletecollection',
          `delete a collection of ${t.kind}`,
          [...LIST, ...DELETE],
          ['200'],
          { response: ref(STATUS), body: ref(DELETE_OPTIONS) },
        ),
      ),
    },
    [`${collection}/{name}`]: {
      parameters: named,
      get: operation(t, '', base('read', 'get', `read the specified ${t.kind}`, [], ['200'])),
      put: operation(
        t,
        '',
        base('replace', 'put', `replace the specified ${t.kind}`, WRITE, ['200', '201'], { body: kind }),
      ),
      patch: operation(
        t,
        '',
        base(
          'patch',
          'patch',
          `partially update the specified ${t.kind}`,
          [...WRITE, query('force', 'boolean', 'Take over fields other managers own (server-side apply).')],
          ['200', '201'],
          { body: ref(PATCH), bodyTypes: t.crd ? CUSTOM_PATCH_TYPES : PATCH_TYPES },
        ),
      ),
      delete: operation(
        t,
        '',
        base('delete', 'delete', `delete a ${t.kind}`, DELETE, ['200', '202'], { body: ref(DELETE_OPTIONS) }),
      ),
    },
  };
  if (t.namespaced) {
    paths[`${prefix}/${t.resource}`] = {
      get: operation(
        t,
        'ForAllNamespaces',
        base('list', 'list', `list or watch objects of kind ${t.kind} in every namespace`, LIST, ['200'], {
          response: ref(listName),
        }),
      ),
    };
  }
  const item = `${collection}/{name}`;
  const sub = (name: string, suffix: string, response: Schema, subGvk: Gvk) => ({
    parameters: named,
    get: operation(
      t,
      suffix,
      base('read', 'get', `read ${name} of the specified ${t.kind}`, [], ['200'], { response, gvk: subGvk }),
    ),
    put: operation(
      t,
      suffix,
      base('replace', 'put', `replace ${name} of the specified ${t.kind}`, WRITE, ['200', '201'], {
        response,
        gvk: subGvk,
        body: response,
      }),
    ),
    patch: operation(
      t,
      suffix,
      base(
        'patch',
        'patch',
        `partially update ${name} of the specified ${t.kind}`,
        [...WRITE, query('force', 'boolean', 'Take over fields other managers own (server-side apply).')],
        ['200', '201'],
        { response, gvk: subGvk, body: ref(PATCH), bodyTypes: t.crd ? CUSTOM_PATCH_TYPES : PATCH_TYPES },
      ),
    ),
  });
  if (t.subresources?.status) paths[`${item}/status`] = sub('status', 'Status', kind, gvk);
  if (t.subresources?.scale)
    paths[`${item}/scale`] = sub('scale', 'Scale', ref('io.k8s.api.autoscaling.v1.Scale'), {
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
    });
  if (t.subresources?.log) {
    paths[`${item}/log`] = {
      parameters: named,
      get: operation(
        t,
        'Log',
        base('read', 'get', `read log of the specified ${t.kind}`, LOG, ['200'], {
          response: { type: 'string' },
          responseTypes: ['text/plain'],
        }),
      ),
    };
  }
  return paths;
}
