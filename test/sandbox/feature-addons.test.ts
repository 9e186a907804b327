import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CreateAddonCommand,
  CreatePodIdentityAssociationCommand,
  DeleteAddonCommand,
  DescribeAddonCommand,
  DescribeClusterCommand as DescribeEksClusterCommand,
  EKSClient,
  UpdateAddonCommand,
} from '@aws-sdk/client-eks';
import {
  AttachRolePolicyCommand,
  CreateOpenIDConnectProviderCommand,
  CreateRoleCommand,
  IAMClient,
} from '@aws-sdk/client-iam';
import { AddTagsCommand, CreateClusterCommand, SageMakerClient } from '@aws-sdk/client-sagemaker';
import { AwsClients, Cloud } from '../../src/cloud/index.js';
import {
  inferenceOperatorConfigurationValues,
  kuberayOperatorManifests,
} from '../../src/domain/features/install-pieces.js';
import { addonNameOf } from '../../src/domain/features/registry.js';
import { FEATURE_IDS, type FeatureId } from '../../src/domain/schemas/features.js';
import type { PhaseContext } from '../../src/engine/workflow.js';
import { applyAndAwait } from '../../src/workflows/apply-and-await.js';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { buildPrereqs, ensureQuota, group, waitForCluster, type HyperPodPrereqs } from './sagemaker-fixtures.js';

const INFERENCE = 'amazon-sagemaker-hyperpod-inference';
const ACCOUNT = '000000000000';
const role = (name: string) => `arn:aws:iam::${ACCOUNT}:role/${name}`;
/** The inference operator's execution role, named as AmazonSageMakerHyperPodInferenceAccess may pass it and trusted as AWS documents. */
const EXEC = 'SageMakerHyperPodInference-fa-exec';
/** Named right, but trusting only SageMaker: the operator cannot assume it through IRSA. */
const UNTRUSTED = 'SageMakerHyperPodInference-fa-untrusted';
/** The name InstantStart gave the execution role before: the managed policy may not pass it. */
const FORMER = 'instantstart-fa-inference-exec';
const INFERENCE_POLICY = 'arn:aws:iam::aws:policy/AmazonSageMakerHyperPodInferenceAccess';

/** What each add-on of the feature registry must put in the cluster: CRDs, and workloads as `<kind>/<namespace>/<name>`. */
const EXPECTED: Partial<Record<FeatureId, { crds: string[]; workloads: string[] }>> = {
  'pod-identity-agent': { crds: [], workloads: ['daemonset/kube-system/eks-pod-identity-agent'] },
  'cert-manager': {
    crds: ['certificates.cert-manager.io', 'issuers.cert-manager.io', 'clusterissuers.cert-manager.io'],
    workloads: ['deployment/cert-manager/cert-manager', 'deployment/cert-manager/cert-manager-webhook'],
  },
  'metrics-server': { crds: [], workloads: ['deployment/kube-system/metrics-server'] },
  's3-csi-driver': {
    crds: ['mountpoints3podattachments.s3.csi.aws.com'],
    workloads: ['daemonset/kube-system/s3-csi-node', 'deployment/kube-system/s3-csi-controller'],
  },
  'fsx-csi-driver': {
    crds: [],
    workloads: ['deployment/kube-system/fsx-csi-controller', 'daemonset/kube-system/fsx-csi-node'],
  },
  'training-operator': {
    crds: ['hyperpodpytorchjobs.sagemaker.amazonaws.com'],
    workloads: ['deployment/aws-hyperpod/hp-training-operator-hp-training-controller-manager'],
  },
  'inference-operator': {
    crds: [
      'inferenceendpointconfigs.inference.sagemaker.aws.amazon.com',
      'jumpstartmodels.inference.sagemaker.aws.amazon.com',
      'scaledobjects.keda.sh',
      'targetgroupbindings.elbv2.k8s.aws',
    ],
    workloads: [
      'deployment/hyperpod-inference-system/hyperpod-inference-controller-manager',
      'deployment/hyperpod-inference-system/keda-operator',
      'deployment/hyperpod-inference-system/aws-load-balancer-controller',
    ],
  },
};

/** A real sandbox with a HyperPod cluster (nodes for the controllers to run on), driven through the SDK and checked with kubectl. */
describe("the feature registry's EKS add-ons materialise in the sandbox cluster", () => {
  let sb: TestSandbox;
  let p: HyperPodPrereqs;
  let k: TestKubeCluster;
  let hyperpodClusterArn: string;
  const eks = new EKSClient({});
  const iam = new IAMClient({});
  const status = async (addonName: string) =>
    (await eks.send(new DescribeAddonCommand({ clusterName: p.eksClusterName, addonName })).catch(() => undefined))
      ?.addon;
  const create = (addonName: string, configurationValues?: string) =>
    eks.send(
      new CreateAddonCommand({
        clusterName: p.eksClusterName,
        addonName,
        ...(configurationValues ? { configurationValues } : {}),
      }),
    );
  const kubectlJson = async (args: string[]) => JSON.parse((await k.kubectl([...args, '-o', 'json'])).stdout);
  const crdNames = async () =>
    new Set<string>((await kubectlJson(['get', 'crd'])).items.map((c: any) => c.metadata.name));
  const values = (over: Record<string, unknown> = {}) =>
    JSON.stringify({
      ...JSON.parse(
        inferenceOperatorConfigurationValues({
          region: 'us-west-2',
          eksClusterName: p.eksClusterName,
          hyperpodClusterArn,
          tlsBucket: 'instantstart-fa-tls-000000000000',
          roleArns: new Map([
            ['execution', role(EXEC)],
            ['gated-model', role('fa-inference-gated')],
            ['load-balancer-controller', role('fa-inference-alb')],
            ['keda', role('fa-inference-keda')],
          ]),
        }),
      ),
      ...over,
    });

  before(async () => {
    sb = await startTestSandbox();
    p = await buildPrereqs(sb, 'fa');
    await ensureQuota(sb, 'ml.m5.xlarge for cluster usage', 2);
    const out = await new SageMakerClient({}).send(
      new CreateClusterCommand({
        ClusterName: 'fa',
        InstanceGroups: [group(p, 'system', 'ml.m5.xlarge', 2)],
        VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
        Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
      }),
    );
    hyperpodClusterArn = out.ClusterArn!;
    await waitForCluster(sb, 'fa', 'InService');
    k = await kubeAccess(sb, p.eksClusterName);
    // IRSA for the inference operator: the cluster's OIDC provider, and roles trusting it (or not).
    const issuer = (await eks.send(new DescribeEksClusterCommand({ name: p.eksClusterName }))).cluster!.identity!.oidc!
      .issuer!;
    const hostPath = issuer.replace(/^https:\/\//, '');
    const provider = (
      await iam.send(new CreateOpenIDConnectProviderCommand({ Url: issuer, ClientIDList: ['sts.amazonaws.com'] }))
    ).OpenIDConnectProviderArn!;
    const sagemaker = { Effect: 'Allow', Principal: { Service: 'sagemaker.amazonaws.com' }, Action: 'sts:AssumeRole' };
    const operator = {
      Effect: 'Allow',
      Principal: { Federated: provider },
      Action: 'sts:AssumeRoleWithWebIdentity',
      Condition: {
        StringEquals: {
          [`${hostPath}:sub`]: 'system:serviceaccount:hyperpod-inference-system:hyperpod-inference-controller-manager',
          [`${hostPath}:aud`]: 'sts.amazonaws.com',
        },
      },
    };
    for (const [name, statements] of [
      [EXEC, [sagemaker, operator]],
      [FORMER, [sagemaker, operator]],
      [UNTRUSTED, [sagemaker]],
    ] as const) {
      await iam.send(
        new CreateRoleCommand({
          RoleName: name,
          AssumeRolePolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: statements }),
        }),
      );
      await iam.send(new AttachRolePolicyCommand({ RoleName: name, PolicyArn: INFERENCE_POLICY }));
    }
  });
  after(async () => sb.dispose());

  it("the inference add-on refuses configuration values its schema does not take, with EKS's error, changing nothing", async () => {
    const before = await sb.inventory();
    const refused = async (configurationValues: string | undefined, pattern: RegExp) =>
      assert.rejects(
        create(INFERENCE, configurationValues),
        (e: Error) => e.name === 'InvalidParameterException' && pattern.test(e.message),
      );
    await refused(
      values({ keda: { auth: { aws: { irsa: { roleArn: 'keda-role' } } } } }),
      /^ConfigurationValue provided in request is not supported: Json schema validation failed with error: \[\$\.keda\.auth\.aws\.irsa\.roleArn: does not match the regex pattern/,
    );
    await refused(
      values({ replicas: 3 }),
      /\$\.replicas: is not defined in the schema and the schema does not allow additional properties/,
    );
    await refused(
      JSON.stringify({ tlsCertificateS3Bucket: 'b-tls', hyperpodClusterArn }),
      /\$\.executionRoleArn: is missing but it is required/,
    );
    await refused(undefined, /requires configuration values.*\$\.executionRoleArn: is missing but it is required/);
    assert.deepEqual(await sb.inventory(), before);
  });

  it('the inference add-on fails to install while its dependencies are missing, naming each', async () => {
    await create(INFERENCE, values());
    await sb.advance(4 * 60);
    const failed = (await status(INFERENCE))!;
    assert.equal(failed.status, 'CREATE_FAILED');
    const issue = failed.health!.issues![0]!;
    assert.deepEqual(issue.resourceIds, [
      'aws-mountpoint-s3-csi-driver',
      'aws-fsx-csi-driver',
      'metrics-server',
      'cert-manager',
    ]);
    assert.match(issue.message!, /cert-manager \(v1\.18\.2-eksbuild\.2 or later\) is not installed/);
    assert.equal(
      (await crdNames()).has('inferenceendpointconfigs.inference.sagemaker.aws.amazon.com'),
      false,
      'a failed install leaves nothing behind',
    );
    await eks.send(new DeleteAddonCommand({ clusterName: p.eksClusterName, addonName: INFERENCE }));
    await eventually(async () => (await status(INFERENCE)) === undefined, {
      sandbox: sb,
      stepSeconds: 30,
      what: 'the failed add-on deleted',
    });
  });

  it("installs every add-on of the registry (dependencies first) and kubectl sees each one's CRDs and controllers", async () => {
    const features = FEATURE_IDS.filter((id) => addonNameOf(id));
    assert.deepEqual(Object.keys(EXPECTED).sort(), [...features].sort(), 'every registry add-on is checked here');
    for (const id of features.filter((f) => f !== 'inference-operator')) await create(addonNameOf(id)!);
    await sb.advance(4 * 60);
    // The add-on's chart refuses an execution role AmazonSageMakerHyperPodInferenceAccess may not pass.
    await create(INFERENCE, values({ executionRoleArn: role(FORMER) }));
    await sb.advance(4 * 60);
    const refused = (await status(INFERENCE))!;
    assert.equal(refused.status, 'CREATE_FAILED');
    assert.equal(
      refused.health!.issues![0]!.message,
      "executionRoleArn must have a role name with prefix 'SageMakerHyperPodInference'",
    );
    await eks.send(new DeleteAddonCommand({ clusterName: p.eksClusterName, addonName: INFERENCE }));
    await eventually(async () => (await status(INFERENCE)) === undefined, {
      sandbox: sb,
      stepSeconds: 30,
      what: 'the refused add-on deleted',
    });
    await create(INFERENCE, values());
    await sb.advance(4 * 60);
    for (const id of features) assert.equal((await status(addonNameOf(id)!))?.status, 'ACTIVE', `${id} ACTIVE`);

    const crds = await crdNames();
    const workloads = new Set<string>();
    for (const kind of ['deployment', 'daemonset'])
      for (const o of (await kubectlJson(['get', kind, '-A'])).items)
        workloads.add(`${kind}/${o.metadata.namespace}/${o.metadata.name}`);
    for (const [id, want] of Object.entries(EXPECTED)) {
      for (const crd of want.crds) assert.ok(crds.has(crd), `${id}: CRD ${crd}`);
      for (const w of want.workloads) assert.ok(workloads.has(w), `${id}: ${w}`);
    }
    const established = await k.kubectl([
      'wait',
      '--for=condition=Established',
      'crd/inferenceendpointconfigs.inference.sagemaker.aws.amazon.com',
      'crd/scaledobjects.keda.sh',
      '--timeout=5s',
    ]);
    assert.equal(established.code, 0, established.stderr);
  });

  it("puts the IRSA roles of the configuration values on the inference add-on's service accounts, and runs its controllers", async () => {
    const annotation = async (name: string) =>
      (await kubectlJson(['get', 'serviceaccount', name, '-n', 'hyperpod-inference-system'])).metadata.annotations?.[
        'eks.amazonaws.com/role-arn'
      ];
    assert.equal(await annotation('hyperpod-inference-controller-manager'), role(EXEC));
    assert.equal(await annotation('aws-load-balancer-controller'), role('fa-inference-alb'));
    assert.equal(await annotation('keda-operator'), role('fa-inference-keda'));
    await eventually(
      async () => {
        const pods = (
          await kubectlJson([
            'get',
            'pods',
            '-n',
            'hyperpod-inference-system',
            '-l',
            'app.kubernetes.io/name=hyperpod-inference-operator',
          ])
        ).items;
        return pods.length > 0 && pods.every((pod: any) => pod.status.phase === 'Running');
      },
      { sandbox: sb, stepSeconds: 30, what: 'the inference operator running' },
    );
    const logs = await k.kubectl([
      'logs',
      '-n',
      'hyperpod-inference-system',
      'deployment/hyperpod-inference-controller-manager',
    ]);
    assert.match(logs.stdout, /"Starting" component="manager"/, "a controller's start-up lines");
  });

  it("the operator passes to SageMaker only roles its policy may pass: a registration naming another fails with AWS's AccessDenied", async () => {
    const registration = (name: string, executionRole: string) => ({
      apiVersion: 'inference.sagemaker.aws.amazon.com/v1',
      kind: 'SageMakerEndpointRegistration',
      metadata: { name, namespace: 'default' },
      spec: {
        name,
        executionRole,
        imageUri: '763104351884.dkr.ecr.us-west-2.amazonaws.com/djl-inference:0.32.0-lmi14.0.0-cu126',
        instanceType: 'ml.g5.8xlarge',
        loadBalancerHostName: 'k8s-default-demo-0123456789.elb.us-west-2.amazonaws.com',
        restApiId: 'a1b2c3d4e5',
        eksClusterDetails: {
          arn: p.eksClusterArn,
          clusterSecurityGroupId: p.securityGroupId,
          name: p.eksClusterName,
          securityGroupIds: [p.securityGroupId],
          subnetIds: p.privateSubnets,
          vpcId: p.vpcId,
        },
        tlsConfig: {
          tlsCertificateOutputS3Bucket: 'instantstart-fa-tls-000000000000',
          tlsCertificateS3Keys: ['certs/demo.pem'],
        },
      },
    });
    for (const r of [registration('passes', role(EXEC)), registration('refused', role(FORMER))]) {
      const applied = await k.kubectl(['apply', '-f', '-'], { input: JSON.stringify(r) });
      assert.equal(applied.code, 0, applied.stderr);
    }
    const state = async (name: string) =>
      (await kubectlJson(['get', 'sagemakerendpointregistration', name, '-n', 'default'])).status;
    await eventually(async () => (await state('refused'))?.state === 'CreationFailed', {
      sandbox: sb,
      stepSeconds: 5,
      what: 'the refused registration failed',
    });
    const refused = await state('refused');
    const expected = `operation error SageMaker: CreateModel, https response error StatusCode: 400, api error AccessDeniedException: User: arn:aws:sts::${ACCOUNT}:assumed-role/${EXEC}/hyperpod-inference-operator is not authorized to perform: iam:PassRole on resource: ${role(FORMER)} because no identity-based policy allows the iam:PassRole action`;
    assert.equal(refused.conditions[0].message, expected);
    assert.equal(refused.conditions[0].reason, 'AccessDenied');
    const events = await kubectlJson([
      'get',
      'events',
      '-n',
      'default',
      '--field-selector',
      'involvedObject.name=refused',
    ]);
    assert.ok(
      events.items.some((e: any) => e.type === 'Warning' && e.reason === 'CreationFailed' && e.message === expected),
      'a Warning event says why',
    );
    assert.equal((await state('passes')).state, 'CreationInProgress', 'its own, rightly named role passes');
  });

  it('keeps the training operator add-on DEGRADED with AccessDenied while its HyperPod cluster lacks the SageMaker=true tag', async () => {
    const training = 'amazon-sagemaker-hyperpod-training-operator';
    const podIdentity = JSON.stringify({
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { Service: 'pods.eks.amazonaws.com' },
          Action: ['sts:AssumeRole', 'sts:TagSession'],
        },
      ],
    });
    const trainingRole = (
      await iam.send(new CreateRoleCommand({ RoleName: 'fa-training-op', AssumeRolePolicyDocument: podIdentity }))
    ).Role!.Arn!;
    await iam.send(
      new AttachRolePolicyCommand({
        RoleName: 'fa-training-op',
        PolicyArn: 'arn:aws:iam::aws:policy/AmazonSageMakerHyperPodTrainingOperatorAccess',
      }),
    );
    await eks.send(
      new CreatePodIdentityAssociationCommand({
        clusterName: p.eksClusterName,
        namespace: 'aws-hyperpod',
        serviceAccount: 'hp-training-operator-controller-manager',
        roleArn: trainingRole,
      }),
    );
    await sb.advance(30);
    const degraded = (await status(training))!;
    assert.equal(degraded.status, 'DEGRADED');
    const issue = degraded.health!.issues!.find((i) => i.code === 'AccessDenied')!;
    assert.match(
      issue.message!,
      new RegExp(
        `api error AccessDeniedException: User: arn:aws:sts::${ACCOUNT}:assumed-role/fa-training-op/hp-training-operator is not authorized to perform: sagemaker:DescribeClusterNode on resource: ${hyperpodClusterArn.replace(/[/.]/g, '\\$&')} because no identity-based policy allows`,
      ),
    );
    await new SageMakerClient({}).send(
      new AddTagsCommand({ ResourceArn: hyperpodClusterArn, Tags: [{ Key: 'SageMaker', Value: 'true' }] }),
    );
    await sb.advance(30);
    assert.equal(
      (await status(training))?.status,
      'ACTIVE',
      'tagged SageMaker=true, the operator may describe its nodes',
    );
  });

  it('keeps the inference add-on DEGRADED while a dependency is gone', async () => {
    await eks.send(new DeleteAddonCommand({ clusterName: p.eksClusterName, addonName: 'metrics-server' }));
    await eventually(async () => (await status('metrics-server')) === undefined, {
      sandbox: sb,
      stepSeconds: 30,
      what: 'metrics-server deleted',
    });
    const degraded = (await status(INFERENCE))!;
    assert.equal(degraded.status, 'DEGRADED');
    assert.match(degraded.health!.issues![0]!.message!, /not ACTIVE on this cluster: metrics-server/);
  });

  it('re-renders the inference add-on when its configuration values change: what they turn off goes, new roles are annotated', async () => {
    await eks.send(
      new UpdateAddonCommand({
        clusterName: p.eksClusterName,
        addonName: INFERENCE,
        configurationValues: values({ executionRoleArn: role(UNTRUSTED), alb: { enabled: false } }),
      }),
    );
    await eventually(async () => (await status(INFERENCE))?.status !== 'UPDATING', {
      sandbox: sb,
      stepSeconds: 30,
      what: 'the update done',
    });
    await sb.advance(1);
    const sa = await kubectlJson([
      'get',
      'serviceaccount',
      'hyperpod-inference-controller-manager',
      '-n',
      'hyperpod-inference-system',
    ]);
    assert.equal(sa.metadata.annotations['eks.amazonaws.com/role-arn'], role(UNTRUSTED));
    // A role the operator's service account cannot assume: its start-up fails as AWS's troubleshooting page quotes it.
    const degraded = (await status(INFERENCE))!;
    assert.equal(degraded.status, 'DEGRADED');
    assert.ok(
      degraded.health!.issues!.some(
        (i) =>
          i.code === 'AccessDenied' &&
          /^failed to enable inference watcher for HyperPod cluster arn:aws:sagemaker:.*: operation error SageMaker: UpdateClusterInference, .*operation error STS: AssumeRoleWithWebIdentity, https response error StatusCode: 403, RequestID: [0-9a-f-]+, api error AccessDenied: Not authorized to perform sts:AssumeRoleWithWebIdentity$/.test(
            i.message!,
          ),
      ),
      JSON.stringify(degraded.health),
    );
    const alb = await k.kubectl(
      ['get', 'deployment', 'aws-load-balancer-controller', '-n', 'hyperpod-inference-system'],
      { allowFailure: true },
    );
    assert.match(alb.stderr, /NotFound/, 'the load balancer controller is gone');
    assert.equal((await crdNames()).has('targetgroupbindings.elbv2.k8s.aws'), false);
    assert.ok(
      (await kubectlJson(['get', 'deployment', 'keda-operator', '-n', 'hyperpod-inference-system'])).metadata.name,
      'KEDA stays',
    );
  });

  it('deleting the inference add-on removes its CRDs and controllers; the others stay', async () => {
    await eks.send(new DeleteAddonCommand({ clusterName: p.eksClusterName, addonName: INFERENCE }));
    await eventually(async () => (await status(INFERENCE)) === undefined, {
      sandbox: sb,
      stepSeconds: 30,
      what: 'the inference add-on deleted',
    });
    await sb.advance(1);
    const crds = await crdNames();
    for (const crd of EXPECTED['inference-operator']!.crds) assert.equal(crds.has(crd), false, `${crd} gone`);
    assert.ok(crds.has('hyperpodpytorchjobs.sagemaker.amazonaws.com'), 'the training operator stays');
    const ns = await k.kubectl(['get', 'namespace', 'hyperpod-inference-system'], { allowFailure: true });
    assert.notEqual(ns.code, 0, 'its namespace is gone');
    assert.match(ns.stderr, /NotFound/);
  });

  it("takes the KubeRay operator by server-side apply through the product's client: CRDs Established, the operator running as a controller, Ray objects kept whole", async () => {
    const kube = await new Cloud(new AwsClients({ defaultRegion: 'us-west-2' })).kube('us-west-2', p.eksClusterName);
    const phase = applyAndAwait<Record<string, never>, Record<string, never>>({
      name: 'kuberay',
      title: 'KubeRay operator',
      expectedSeconds: 60,
      deadline: { actSeconds: 60, waitSeconds: 600 },
      kube: async () => kube,
      manifests: () => kuberayOperatorManifests(),
    });
    const lines: string[] = [];
    const ctx: PhaseContext<Record<string, never>, Record<string, never>> = {
      operationId: 'op-kuberay',
      input: {},
      state: {},
      setState: () => {},
      log: (m) => void lines.push(m),
      signal: new AbortController().signal,
      attempt: 1,
      earlierFailures: [],
    };
    assert.equal(await phase.observe(ctx), 'needs-act');
    await phase.act!(ctx);
    assert.match(
      lines.join('\n'),
      /Applied CustomResourceDefinition rayclusters\.ray\.io[\s\S]*Applied Deployment kuberay-system\/kuberay-operator/,
    );
    await eventually(async () => (await phase.await!(ctx)).done, {
      sandbox: sb,
      stepSeconds: 15,
      what: 'the KubeRay operator ready',
    });
    assert.equal(await phase.observe(ctx), 'done', 'a repeat finds everything in place');

    const pod = (
      await kubectlJson(['get', 'pods', '-n', 'kuberay-system', '-l', 'app.kubernetes.io/component=kuberay-operator'])
    ).items[0];
    assert.equal(pod.status.phase, 'Running');
    assert.equal(pod.spec.containers[0].image, 'quay.io/kuberay/operator:v1.6.2');
    // The operator logs "Reconciled" a few sandbox seconds after it took its lease: read until it has (kubectl answers
    // in a fraction of a second, so the first read may come before).
    let logs = await k.kubectl(['logs', '-n', 'kuberay-system', pod.metadata.name]);
    await eventually(
      async () => {
        logs = await k.kubectl(['logs', '-n', 'kuberay-system', pod.metadata.name]);
        return logs.stdout.includes('"Reconciled"');
      },
      { sandbox: sb, stepSeconds: 15, what: 'the KubeRay operator reconciling' },
    );
    assert.match(
      logs.stdout,
      /"Starting" component="kuberay-operator" version="v1\.6\.2"[\s\S]*"Reconciled"/,
      'the sandbox runs it as a controller',
    );

    const rayCluster = {
      apiVersion: 'ray.io/v1',
      kind: 'RayCluster',
      metadata: { name: 'demo', namespace: 'default' },
      spec: {
        rayVersion: '2.46.0',
        headGroupSpec: {
          rayStartParams: {},
          template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.46.0' }] } },
        },
        gcsFaultToleranceOptions: { redisAddress: 'redis:6379' },
      },
    };
    const applied = await k.kubectl(['apply', '--server-side', '-f', '-'], { input: JSON.stringify(rayCluster) });
    assert.equal(applied.code, 0, applied.stderr);
    const stored = await kubectlJson(['get', 'raycluster', 'demo', '-n', 'default']);
    assert.deepEqual(
      stored.spec.gcsFaultToleranceOptions,
      { redisAddress: 'redis:6379' },
      'a field outside the cut-down schema is kept',
    );
    const table = await k.kubectl(['get', 'rayclusters', '-n', 'default']);
    assert.match(
      table.stdout.split('\n')[0]!,
      /^NAME\s+DESIRED WORKERS\s+AVAILABLE WORKERS\s+CPUS\s+MEMORY\s+GPUS\s+STATUS\s+AGE$/,
    );
    const invalid = await k.kubectl(['apply', '--server-side', '-f', '-'], {
      input: JSON.stringify({
        ...rayCluster,
        metadata: { name: 'bad', namespace: 'default' },
        spec: { rayVersion: '2.46.0' },
      }),
      allowFailure: true,
    });
    assert.notEqual(invalid.code, 0);
    assert.match(invalid.stderr, /headGroupSpec: Required value/);
  });
});
