import type { Authenticated } from './auth.js';
import type { KubeCluster } from './cluster.js';
import type { KubeVerb } from './api/context.js';
import { forbidden } from './errors.js';
import { builtinType } from './resources.js';
import type { KubeObject, ResourceType } from './types.js';

/**
 * Authorisation as on EKS: a request is allowed when the principal's EKS access policies allow it
 * (within their cluster or namespace scope) OR Kubernetes RBAC does (bindings to the user or its
 * groups — `kubernetesGroups` of the access entry, or aws-auth groups; `system:masters` is all).
 */

const READ: KubeVerb[] = ['get', 'list', 'watch'];
const ALL_VERBS: KubeVerb[] = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

interface PolicyGrant {
  verbs: KubeVerb[];
  /** Resources never granted (by `resource` or `group/resource`). */
  except?: string[];
  /** Subresources never granted (the view role has no `services/proxy` or `pods/proxy`; edit and admin do). */
  exceptSubresources?: string[];
  /** Cluster-scoped resources are granted too (only with a cluster access scope). */
  clusterScoped: boolean;
}

/** What each EKS access policy grants (the Kubernetes role AWS documents for it). */
const POLICIES: Record<string, PolicyGrant> = {
  AmazonEKSClusterAdminPolicy: { verbs: ALL_VERBS, clusterScoped: true },
  AmazonEKSAdminPolicy: { verbs: ALL_VERBS, clusterScoped: false },
  AmazonEKSEditPolicy: { verbs: ALL_VERBS, except: ['roles', 'rolebindings'], clusterScoped: false },
  AmazonEKSViewPolicy: { verbs: READ, except: ['secrets'], exceptSubresources: ['proxy'], clusterScoped: true },
  AmazonEKSAdminViewPolicy: { verbs: READ, clusterScoped: true },
};

export function authorize(
  cluster: KubeCluster,
  who: Authenticated,
  verb: KubeVerb,
  type: ResourceType | undefined,
  namespace: string | undefined,
  subresource?: string,
): void {
  if (!type) return; // discovery, /version and OpenAPI are open to every authenticated user, as on EKS
  if (isAllowed(cluster, who, verb, type, namespace, subresource)) return;
  throw forbidden(who.user.username, verb, type, namespace, '', subresource);
}

/** Whether the request would be allowed (what `authorize` checks, as a yes or no). */
export function isAllowed(
  cluster: KubeCluster,
  who: Authenticated,
  verb: KubeVerb,
  type: ResourceType,
  namespace: string | undefined,
  subresource?: string,
): boolean {
  return (
    allowedByPolicies(who, verb, type, namespace, subresource) ||
    allowedByRbac(cluster, who, verb, type, namespace, subresource) ||
    allowedForNodes(who, verb, type, subresource)
  );
}

/** A pod's service account as the API server authenticates its token: `system:serviceaccount:<ns>:<name>` in the service-account groups. */
export function serviceAccountPrincipal(namespace: string, name: string): Authenticated {
  return {
    user: {
      username: `system:serviceaccount:${namespace}:${name}`,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
      arn: '',
    },
    policies: [],
  };
}

function allowedByPolicies(
  who: Authenticated,
  verb: KubeVerb,
  type: ResourceType,
  namespace: string | undefined,
  subresource?: string,
): boolean {
  return who.policies.some((p) => {
    const grant = POLICIES[p.policyArn.slice(p.policyArn.lastIndexOf('/') + 1)];
    if (!grant || !grant.verbs.includes(verb)) return false;
    if (grant.except?.includes(type.resource)) return false;
    if (subresource && grant.exceptSubresources?.includes(subresource)) return false;
    if (p.accessScope.type === 'namespace') {
      // Namespace-scoped: only namespaced resources, only in the listed namespaces (not across all).
      return type.namespaced && namespace !== undefined && p.accessScope.namespaces.includes(namespace);
    }
    return type.namespaced || grant.clusterScoped;
  });
}

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
}

function allowedByRbac(
  cluster: KubeCluster,
  who: Authenticated,
  verb: KubeVerb,
  type: ResourceType,
  namespace: string | undefined,
  subresource?: string,
): boolean {
  const { username, groups } = who.user;
  if (groups.includes('system:masters')) return true;
  const isSubject = (binding: KubeObject) =>
    ((binding.subjects as Array<{ kind: string; name: string; namespace?: string }> | undefined) ?? []).some(
      (s) =>
        (s.kind === 'User' && s.name === username) ||
        (s.kind === 'Group' && groups.includes(s.name)) ||
        (s.kind === 'ServiceAccount' && username === `system:serviceaccount:${s.namespace ?? ''}:${s.name}`),
    );
  const rulesOf = (ref: { kind: string; name: string }, bindingNamespace?: string): Rule[] => {
    const role =
      ref.kind === 'ClusterRole'
        ? cluster.objects.get(builtinType('rbac.authorization.k8s.io', 'clusterroles'), undefined, ref.name)
        : cluster.objects.get(builtinType('rbac.authorization.k8s.io', 'roles'), bindingNamespace, ref.name);
    return (role?.rules as Rule[] | undefined) ?? [];
  };
  const matches = (r: Rule) =>
    (r.apiGroups ?? []).some((g) => g === '*' || g === type.group) &&
    (r.resources ?? []).some(
      (res) => res === '*' || res === (subresource ? `${type.resource}/${subresource}` : type.resource),
    ) &&
    (r.verbs ?? []).some((v) => v === '*' || v === verb);

  for (const crb of cluster.objects.list(builtinType('rbac.authorization.k8s.io', 'clusterrolebindings'))) {
    if (isSubject(crb) && rulesOf(crb.roleRef as { kind: string; name: string }).some(matches)) return true;
  }
  if (namespace === undefined || !type.namespaced) return false;
  for (const rb of cluster.objects.list(builtinType('rbac.authorization.k8s.io', 'rolebindings'), namespace)) {
    if (isSubject(rb) && rulesOf(rb.roleRef as { kind: string; name: string }, namespace).some(matches)) return true;
  }
  return false;
}

/** What the node authorizer lets kubelets (the `system:nodes` group, e.g. HyperPod node roles) do. */
function allowedForNodes(who: Authenticated, verb: KubeVerb, type: ResourceType, subresource?: string): boolean {
  if (!who.user.groups.includes('system:nodes')) return false;
  if (READ.includes(verb)) return type.resource !== 'secrets';
  if (type.resource === 'nodes' || (type.resource === 'pods' && subresource === 'status'))
    return verb === 'create' || verb === 'update' || verb === 'patch';
  return type.resource === 'events' && (verb === 'create' || verb === 'patch');
}
