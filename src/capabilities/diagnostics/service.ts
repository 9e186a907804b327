import type { Diagnosis } from '../../domain/schemas/diagnostics.js';
import { diagnoseClusterCreation } from './creation.js';
import { diagnoseNcclJob } from './nccl.js';
import { diagnoseNode } from './node.js';
import type { DiagnosticsReadPort } from './read-port.js';

/**
 * The diagnostics capability (issue 29): each diagnosis gathers evidence through the read port alone and answers
 * findings and suggested commands as text. Built from a DiagnosticsReadPort, never from the cloud or the operations
 * engine, so that nothing here can change anything.
 */
export class DiagnosticsService {
  constructor(private readonly read: DiagnosticsReadPort) {}

  /** Why a cluster's create failed (or where it stands). */
  clusterCreation(region: string, cluster: string, operationId?: string): Promise<Diagnosis> {
    return diagnoseClusterCreation(this.read, { region, cluster, ...(operationId ? { operationId } : {}) });
  }

  /** A node's health and where it stands on investigate → reboot → replace. */
  node(region: string, cluster: string, node: string): Promise<Diagnosis> {
    return diagnoseNode(this.read, { region, cluster, node });
  }

  /** NCCL/EFA evidence of a training job: its ranks' logs, settings, devices, security group and placement. */
  nccl(region: string, cluster: string, namespace: string, job: string): Promise<Diagnosis> {
    return diagnoseNcclJob(this.read, { region, cluster, namespace, job });
  }
}
