import type { SecurityGroupAttributes } from '../network/completeness.js';
import type { InstanceTypeFacts } from '../training/placement.js';
import type { SavedRequest } from '../training/resubmit.js';

/**
 * What `diagnose_nccl` reads before it judges (src/domain/diagnostics/nccl.ts): the job, each rank's pod with the
 * environment it was given and a bounded tail of its log, the nodes the ranks run on (or could), and the cluster's
 * security group. Every field is a plain read — pods, logs, nodes, EC2 DescribeSecurityGroups — so the diagnostic
 * needs read ports only. A field it could not read is left out (undefined), never guessed: the rules then say
 * what was not checked instead of passing it.
 */

export interface NcclJobEvidence {
  /** `HyperPodPyTorchJob` or `RayJob` (the two kinds the product submits), or another kind whose pods run NCCL. */
  kind: string;
  name: string;
  namespace: string;
  /**
   * The label selector of its ranks' pods (`HPJob=<job>`, or a RayJob's Ray cluster's `ray.io/cluster=<cluster>`);
   * absent while a RayJob has no Ray cluster yet.
   */
  podSelector?: string;
  /** The instance group its pods are placed on (the pods' node selector), when known. */
  instanceGroup?: string;
  instanceType?: string;
  /** The catalog's facts of that type (EC2 DescribeInstanceTypes): accelerators and EFA. */
  facts?: InstanceTypeFacts;
  /**
   * The submit request the job was made from (its `instantstart.dev/request` annotation, src/domain/training/
   * resubmit.ts), when it has one that parses: what a resubmit through InstantStart sends again.
   */
  request?: SavedRequest;
}

export interface NcclRankEvidence {
  /** NODE_RANK: the pod's index across the job's replicaSpecs. */
  rank: number;
  /** The pod's name (namespace is the job's). */
  pod: string;
  /** spec.nodeName; absent while the pod is not scheduled. */
  node?: string;
  /** The zone of that node (its `topology.kubernetes.io/zone` label). */
  zone?: string;
  /** status.phase: Pending, Running, Succeeded, Failed, Unknown. */
  phase?: string;
  /** The training container's restartCount. */
  restarts: number;
  /**
   * The training container's environment as set in the pod spec: literal `value`s only (a `valueFrom` is not
   * a setting we can judge, and secrets never enter a diagnosis). Only `FI_*` and `NCCL_*` names are needed.
   */
  env: Record<string, string>;
  /** What the training container requests (limits) of `vpc.amazonaws.com/efa` and `nvidia.com/gpu`; 0 when not. */
  efaRequested: number;
  gpusRequested: number;
  /** The last lines of the current run's log (a bounded tail), oldest first. */
  log: string[];
  /** The last lines of the run before the last restart, when there was one (`kubectl logs --previous`). */
  previousLog?: string[];
}

export interface NcclNodeEvidence {
  /** The Kubernetes node name (on HyperPod: `hyperpod-i-…`). */
  name: string;
  instanceGroup?: string;
  instanceType?: string;
  zone?: string;
  /** status.allocatable of the devices NCCL needs; 0 when the node does not advertise them. */
  allocatable: { efa: number; gpu: number };
}

export interface NcclEvidence {
  cluster: string;
  region: string;
  job: NcclJobEvidence;
  ranks: NcclRankEvidence[];
  /** The nodes of the ranks and of the job's instance group. */
  nodes: NcclNodeEvidence[];
  /** The cluster's node security group with its rules (absent: not read). */
  securityGroup?: SecurityGroupAttributes;
  /** How many lines of each rank's log were read (to say so when nothing was found in them). */
  logTailLines: number;
}
