import { BASE_EKS_ADDONS } from '../../../../domain/cluster-dependencies.js';
import { eksClusterRole, hyperpodExecutionRole } from '../../../../domain/cluster-roles.js';
import { CloudError } from '../../../../domain/errors.js';
import { chooseKubernetesVersion, hyperPodKubernetesRange } from '../../../../domain/kubernetes-versions.js';
import { clusterTags, resourceNames } from '../../../../domain/naming.js';
import type { PhaseContext, PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import type { CreateClusterInput, CreateClusterState } from './types.js';

type Ctx = PhaseContext<CreateClusterInput, CreateClusterState>;
type Phase = PhaseDefinition<CreateClusterInput, CreateClusterState>;

export async function namesFor(deps: WorkflowDeps, ctx: Ctx) {
  let accountId = ctx.state.accountId;
  if (!accountId) {
    accountId = await deps.cloud.accountId();
    ctx.setState({ accountId });
  }
  return resourceNames(ctx.input.name, accountId, ctx.input.region);
}

const eksArn = (ctx: Ctx, eksName: string) =>
  `arn:aws:eks:${ctx.input.region}:${ctx.state.accountId}:cluster/${eksName}`;

export function iamPhase(deps: WorkflowDeps): Phase {
  const roles = async (ctx: Ctx) => {
    const names = await namesFor(deps, ctx);
    return [eksClusterRole(names), hyperpodExecutionRole(names, eksArn(ctx, names.eksCluster))] as const;
  };
  return {
    name: 'iam',
    title: 'IAM roles: EKS cluster role and HyperPod execution role',
    expectedSeconds: 20,
    deadline: { actSeconds: 300, waitSeconds: 300 }, // IAM calls; role propagation takes seconds
    async observe(ctx) {
      const [eksRole, execRole] = await roles(ctx);
      if (!(await deps.cloud.iam.isComplete(eksRole)) || !(await deps.cloud.iam.isComplete(execRole)))
        return 'needs-act';
      ctx.setState({
        eksClusterRoleArn: await deps.cloud.iam.find(eksRole.roleName),
        executionRoleArn: await deps.cloud.iam.find(execRole.roleName),
      });
      return 'done';
    },
    async act(ctx) {
      const [eksRole, execRole] = await roles(ctx);
      const log = (m: string) => ctx.log(m);
      ctx.setState({
        eksClusterRoleArn: await deps.cloud.iam.ensure(ctx.input.name, eksRole, log),
        executionRoleArn: await deps.cloud.iam.ensure(ctx.input.name, execRole, log),
      });
    },
  };
}

/**
 * The version asked for, else the one both EKS and HyperPod support (chooseKubernetesVersion), read
 * from EKS once and journaled before CreateCluster: a create resumed after a crash (or retried)
 * asks EKS for the same version even if EKS has changed its default meanwhile.
 */
async function kubernetesVersionFor(deps: WorkflowDeps, ctx: Ctx): Promise<string> {
  if (ctx.state.kubernetesVersion) return ctx.state.kubernetesVersion;
  const version =
    ctx.input.kubernetesVersion ?? chooseKubernetesVersion(await deps.cloud.eks.clusterVersions(ctx.input.region));
  if (!version) {
    throw new CloudError({
      service: 'eks',
      operation: 'DescribeClusterVersions',
      code: 'NoSupportedKubernetesVersion',
      message: `EKS offers no Kubernetes version in ${ctx.input.region} that SageMaker HyperPod supports (${hyperPodKubernetesRange()}). Create the cluster in another Region.`,
    });
  }
  ctx.setState({ kubernetesVersion: version });
  return version;
}

export function eksPhase(deps: WorkflowDeps): Phase {
  return {
    name: 'eks',
    title: 'EKS control plane (about 8–12 minutes on AWS)',
    expectedSeconds: 600,
    deadline: { actSeconds: 300, waitSeconds: 2700 }, // AWS: an EKS create takes about 10–15 min
    async observe(ctx) {
      const names = await namesFor(deps, ctx);
      const c = await deps.cloud.eks.describeCluster(ctx.input.region, names.eksCluster);
      if (!c) return 'needs-act';
      ctx.setState({ eksClusterArn: c.arn, kubernetesVersion: c.version });
      if (c.status === 'ACTIVE') return 'done';
      if (c.status === 'CREATING') return 'in-progress';
      throw new CloudError({
        service: 'eks',
        operation: 'DescribeCluster',
        code: `Cluster${c.status}`,
        message: `EKS cluster ${names.eksCluster} is ${c.status}${c.health?.issues?.length ? `: ${c.health.issues.map((i) => i.message).join('; ')}` : ''}. Delete the cluster and create it again.`,
      });
    },
    async act(ctx) {
      const names = await namesFor(deps, ctx);
      const version = await kubernetesVersionFor(deps, ctx);
      const subnets = ctx.state.subnets!;
      const c = await deps.cloud.eks.createCluster(ctx.input.region, {
        name: names.eksCluster,
        roleArn: ctx.state.eksClusterRoleArn!,
        subnetIds: [...subnets.private, subnets.compute],
        securityGroupIds: [ctx.state.securityGroupId!],
        version,
        tags: clusterTags(ctx.input.name, 'eks'),
      });
      ctx.setState({ eksClusterArn: c.arn, kubernetesVersion: c.version ?? version });
      ctx.log(
        `Requested EKS cluster ${names.eksCluster} (Kubernetes ${c.version ?? version}, authentication API_AND_CONFIG_MAP)`,
      );
    },
    pollKey: (ctx) => `eks:${ctx.input.region}:cluster:${ctx.input.name}`,
    async await(ctx) {
      const names = await namesFor(deps, ctx);
      const c = await deps.cloud.eks.describeCluster(ctx.input.region, names.eksCluster);
      if (!c)
        throw new CloudError({
          service: 'eks',
          operation: 'DescribeCluster',
          code: 'ResourceNotFoundException',
          message: `EKS cluster ${names.eksCluster} disappeared while being created.`,
        });
      if (c.status === 'FAILED')
        throw new CloudError({
          service: 'eks',
          operation: 'CreateCluster',
          code: 'ClusterFailed',
          message: `EKS cluster ${names.eksCluster} failed to create${c.health?.issues?.length ? `: ${c.health.issues.map((i) => i.message).join('; ')}` : ''}.`,
        });
      return { done: c.status === 'ACTIVE', progress: `EKS cluster ${c.status}` };
    },
  };
}

/**
 * How long a set of EKS add-ons installed together takes on AWS: each becomes ACTIVE in one to three
 * minutes, the set when its slowest does. Sets the polling schedule of the add-on waits.
 */
export const ADDON_SET_EXPECTED_SECONDS = 150;

/** vpc-cni, kube-proxy, coredns and the pod identity agent, at the versions EKS marks default. */
export function eksAddonsPhase(deps: WorkflowDeps): Phase {
  const statuses = async (ctx: Ctx, inWait = false) => {
    const names = await namesFor(deps, ctx);
    // Add-ons already seen settled in this wait are not asked again (`known`); the rest concurrently.
    const known = new Map(inWait ? Object.entries(ctx.state.baseAddonsSettled ?? {}) : []);
    const read = async (a: string) =>
      known.get(a) ?? (await deps.cloud.eks.describeAddon(ctx.input.region, names.eksCluster, a))?.status;
    const found = await Promise.all(BASE_EKS_ADDONS.map(async (a) => [a, await read(a)] as const));
    return Object.fromEntries(found) as Record<string, string | undefined>;
  };
  // DEGRADED is normal before nodes exist (coredns has nowhere to run yet).
  const settled = (s: string | undefined) => s === 'ACTIVE' || s === 'DEGRADED';
  return {
    name: 'eks-addons',
    title: 'EKS base add-ons: vpc-cni, kube-proxy, coredns, eks-pod-identity-agent',
    expectedSeconds: ADDON_SET_EXPECTED_SECONDS,
    deadline: { actSeconds: 300, waitSeconds: 1800 }, // add-ons turn ACTIVE within minutes
    async observe(ctx) {
      const s = await statuses(ctx);
      if (Object.values(s).every(settled)) return 'done';
      if (Object.values(s).some((x) => x === undefined)) return 'needs-act';
      ctx.setState({
        baseAddonsSettled: Object.fromEntries(Object.entries(s).filter(([, v]) => settled(v))) as Record<
          string,
          string
        >,
      });
      return 'in-progress';
    },
    async act(ctx) {
      const names = await namesFor(deps, ctx);
      ctx.setState({ baseAddonsSettled: {} });
      const s = await statuses(ctx);
      for (const addon of BASE_EKS_ADDONS) {
        if (s[addon] !== undefined) {
          ctx.log(`${addon}: already installed (${s[addon]})`);
          continue;
        }
        const version = await deps.cloud.eks.defaultAddonVersion(ctx.input.region, addon, ctx.state.kubernetesVersion!);
        await deps.cloud.eks.createAddon(ctx.input.region, names.eksCluster, addon, {
          version,
          tags: clusterTags(ctx.input.name, 'addon'),
        });
        ctx.log(`${addon}: installing ${version ?? ''}`.trim());
      }
    },
    pollKey: (ctx) => `eks:${ctx.input.region}:base-addons:${ctx.input.name}`,
    async await(ctx) {
      const s = await statuses(ctx, true);
      const failed = Object.entries(s).filter(([, v]) => v === 'CREATE_FAILED');
      if (failed.length)
        throw new CloudError({
          service: 'eks',
          operation: 'CreateAddon',
          code: 'AddonCreateFailed',
          message: `EKS add-on(s) ${failed.map(([k]) => k).join(', ')} failed to install.`,
        });
      const nowSettled = Object.entries(s).filter(([, v]) => settled(v)) as Array<[string, string]>;
      if (nowSettled.length > Object.keys(ctx.state.baseAddonsSettled ?? {}).length)
        ctx.setState({ baseAddonsSettled: Object.fromEntries(nowSettled) });
      return {
        done: Object.values(s).every(settled),
        progress: Object.entries(s)
          .map(([k, v]) => `${k} ${v}`)
          .join(', '),
      };
    },
  };
}
