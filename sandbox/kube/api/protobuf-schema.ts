/**
 * The protobuf field numbers of the messages `kubectl create` sends for the kinds the sandbox
 * serves (the wire format of k8s.io/api's generated.proto, limited to these messages and their
 * fields). Status messages are skipped: the API resets status on create.
 */

export type ScalarType = 'string' | 'int' | 'bool' | 'bytes' | 'time' | 'quantity' | 'intOrString';

export interface Field {
  name: string;
  type: ScalarType | 'skip' | Message;
  repeated?: boolean;
  /** A map<string, …> (repeated key/value entries). */
  map?: 'string' | 'bytes' | 'quantity';
  /** A Go pointer field: a zero value was set on purpose and stays in the JSON. */
  keepZero?: boolean;
}

export type Message = { [num: number]: Field };

const s = (name: string): Field => ({ name, type: 'string' });
const strings = (name: string): Field => ({ name, type: 'string', repeated: true });
const int = (name: string, keepZero = false): Field => ({ name, type: 'int', ...(keepZero ? { keepZero } : {}) });
const bool = (name: string, keepZero = false): Field => ({ name, type: 'bool', ...(keepZero ? { keepZero } : {}) });
const map = (name: string, of: Field['map'] = 'string'): Field => ({ name, type: 'string', map: of });
const msg = (name: string, type: Message, repeated = false): Field => ({
  name,
  type,
  ...(repeated ? { repeated } : {}),
});
const skip = (name: string): Field => ({ name, type: 'skip' });

const OWNER_REFERENCE: Message = {
  1: s('kind'),
  3: s('name'),
  4: s('uid'),
  5: s('apiVersion'),
  6: bool('controller', true),
  7: bool('blockOwnerDeletion', true),
};

const OBJECT_META: Message = {
  1: s('name'),
  2: s('generateName'),
  3: s('namespace'),
  5: s('uid'),
  6: s('resourceVersion'),
  7: int('generation'),
  8: { name: 'creationTimestamp', type: 'time' },
  11: map('labels'),
  12: map('annotations'),
  13: msg('ownerReferences', OWNER_REFERENCE, true),
  14: strings('finalizers'),
};

const LABEL_SELECTOR: Message = {
  1: map('matchLabels'),
  2: msg('matchExpressions', { 1: s('key'), 2: s('operator'), 3: strings('values') }, true),
};

const CONTAINER: Message = {
  1: s('name'),
  2: s('image'),
  3: strings('command'),
  4: strings('args'),
  5: s('workingDir'),
  6: msg(
    'ports',
    { 1: s('name'), 2: int('hostPort'), 3: int('containerPort'), 4: s('protocol'), 5: s('hostIP') },
    true,
  ),
  7: msg('env', { 1: s('name'), 2: s('value') }, true),
  8: msg('resources', { 1: map('limits', 'quantity'), 2: map('requests', 'quantity') }),
  13: s('terminationMessagePath'),
  14: s('imagePullPolicy'),
  16: bool('stdin'),
  17: bool('stdinOnce'),
  18: bool('tty'),
  20: s('terminationMessagePolicy'),
};

const POD_TEMPLATE: Message = {
  1: msg('metadata', OBJECT_META),
  2: msg('spec', {
    2: msg('containers', CONTAINER, true),
    3: s('restartPolicy'),
    4: int('terminationGracePeriodSeconds', true),
    5: int('activeDeadlineSeconds', true),
    6: s('dnsPolicy'),
    7: map('nodeSelector'),
    8: s('serviceAccountName'),
    9: s('serviceAccount'),
    10: s('nodeName'),
    15: msg('imagePullSecrets', { 1: s('name') }, true),
    19: s('schedulerName'),
    20: msg('initContainers', CONTAINER, true),
    21: bool('automountServiceAccountToken', true),
    30: bool('enableServiceLinks', true),
  }),
};

const INT_OR_STRING: Field['type'] = 'intOrString';
const POLICY_RULE: Message = {
  1: strings('verbs'),
  2: strings('apiGroups'),
  3: strings('resources'),
  4: strings('resourceNames'),
  5: strings('nonResourceURLs'),
};
const BINDING: Message = {
  1: msg('metadata', OBJECT_META),
  2: msg('subjects', { 1: s('kind'), 2: s('apiGroup'), 3: s('name'), 4: s('namespace') }, true),
  3: msg('roleRef', { 1: s('apiGroup'), 2: s('kind'), 3: s('name') }),
};

/** The top-level message of each kind `kubectl create` can send. */
export const KIND_MESSAGES: Record<string, Message> = {
  Namespace: { 1: msg('metadata', OBJECT_META), 2: msg('spec', { 1: strings('finalizers') }), 3: skip('status') },
  ConfigMap: {
    1: msg('metadata', OBJECT_META),
    2: map('data'),
    3: map('binaryData', 'bytes'),
    4: bool('immutable', true),
  },
  Secret: {
    1: msg('metadata', OBJECT_META),
    2: map('data', 'bytes'),
    3: s('type'),
    4: map('stringData'),
    5: bool('immutable', true),
  },
  ServiceAccount: {
    1: msg('metadata', OBJECT_META),
    2: msg('secrets', { 1: s('kind'), 2: s('namespace'), 3: s('name'), 4: s('uid'), 5: s('apiVersion') }, true),
    3: msg('imagePullSecrets', { 1: s('name') }, true),
    4: bool('automountServiceAccountToken', true),
  },
  Service: {
    1: msg('metadata', OBJECT_META),
    2: msg('spec', {
      1: msg(
        'ports',
        {
          1: s('name'),
          2: s('protocol'),
          3: int('port'),
          4: { name: 'targetPort', type: INT_OR_STRING },
          5: int('nodePort'),
          6: s('appProtocol'),
        },
        true,
      ),
      2: map('selector'),
      3: s('clusterIP'),
      4: s('type'),
      5: strings('externalIPs'),
      7: s('sessionAffinity'),
      8: s('loadBalancerIP'),
      10: s('externalName'),
      11: s('externalTrafficPolicy'),
      18: strings('clusterIPs'),
    }),
    3: skip('status'),
  },
  Deployment: {
    1: msg('metadata', OBJECT_META),
    2: msg('spec', {
      1: int('replicas', true),
      2: msg('selector', LABEL_SELECTOR),
      3: msg('template', POD_TEMPLATE),
      4: msg('strategy', {
        1: s('type'),
        2: msg('rollingUpdate', {
          1: { name: 'maxUnavailable', type: INT_OR_STRING },
          2: { name: 'maxSurge', type: INT_OR_STRING },
        }),
      }),
      5: int('minReadySeconds'),
      6: int('revisionHistoryLimit', true),
      7: bool('paused'),
      9: int('progressDeadlineSeconds', true),
    }),
    3: skip('status'),
  },
  Job: {
    1: msg('metadata', OBJECT_META),
    2: msg('spec', {
      1: int('parallelism', true),
      2: int('completions', true),
      3: int('activeDeadlineSeconds', true),
      4: msg('selector', LABEL_SELECTOR),
      5: bool('manualSelector', true),
      6: msg('template', POD_TEMPLATE),
      7: int('backoffLimit', true),
      8: int('ttlSecondsAfterFinished', true),
      9: s('completionMode'),
      10: bool('suspend', true),
    }),
    3: skip('status'),
  },
  Role: { 1: msg('metadata', OBJECT_META), 2: msg('rules', POLICY_RULE, true) },
  ClusterRole: {
    1: msg('metadata', OBJECT_META),
    2: msg('rules', POLICY_RULE, true),
    3: msg('aggregationRule', { 1: msg('clusterRoleSelectors', LABEL_SELECTOR, true) }),
  },
  RoleBinding: BINDING,
  ClusterRoleBinding: BINDING,
};
