import type { DoctorLine, DoctorQuery, DoctorReport } from '../../domain/schemas/doctor.js';
import { CloudError } from '../../domain/errors.js';
import { clusterLines } from './cluster-lines.js';
import { permissionLines, principalOf } from './permissions.js';
import type { DoctorReadPort } from './read-port.js';

/** The Elastic IP quota a new cluster's NAT gateway draws on (Service Quotas, EC2: "EC2-VPC Elastic IPs"). */
const ELASTIC_IP_QUOTA = 'L-0263D0A3';

/**
 * `instantstart doctor`: who the credentials are, every permission of the product's policy simulated for them, the
 * quotas of the instance types asked about, the Region's Kubernetes versions, its Elastic IP headroom and, for an
 * existing cluster, its add-ons and what they need. Read-only:
 * built from DoctorReadPort alone.
 *
 * Not checked: the VPCs-per-Region quota (Service Quotas `vpc` L-F678F1CE) — the product reads no VPC quota today
 * (its catalogue reads HyperPod's), so doctor says nothing about it rather than guess.
 */
export class DoctorService {
  constructor(private readonly port: DoctorReadPort) {}

  async check(region: string, query: DoctorQuery): Promise<DoctorReport> {
    let caller: { accountId: string; arn: string };
    try {
      caller = await this.port.caller();
    } catch (err) {
      const line: DoctorLine = {
        area: 'credentials',
        status: 'missing',
        title: 'Credentials',
        detail: `STS GetCallerIdentity failed: ${errorText(err)}`,
        fix: 'Give the server working AWS credentials (a role, `aws sso login`, or a profile), then check again.',
      };
      return { ok: false, region, lines: [line] };
    }
    const lines: DoctorLine[] = [
      {
        area: 'credentials',
        status: 'ok',
        title: 'Credentials',
        detail: `Account ${caller.accountId} as ${caller.arn}`,
      },
    ];
    const principal = principalOf(caller.arn, query.principalArn);
    const [permissions, quotas, versions, elasticIps, cluster] = await Promise.all([
      'line' in principal
        ? [principal.line]
        : permissionLines(this.port, { accountId: caller.accountId, region, principalArn: principal.principalArn }),
      Promise.all(query.instanceTypes.map((t) => this.quotaLine(region, t))),
      this.kubernetesLine(region),
      this.elasticIpLine(region),
      query.cluster ? clusterLines(this.port, region, query.cluster) : [],
    ]);
    lines.push(...permissions, ...quotas, versions, elasticIps, ...cluster);
    return {
      ok: lines.every((l) => l.status === 'ok'),
      region,
      accountId: caller.accountId,
      callerArn: caller.arn,
      ...('principalArn' in principal ? { principalArn: principal.principalArn } : {}),
      lines,
    };
  }

  /** The catalog's quota check for one instance of the type, on demand: is there room for one more? */
  private async quotaLine(region: string, instanceType: string): Promise<DoctorLine> {
    const title = `Quotas for ${instanceType}`;
    try {
      const r = await this.port.quotas({ region, instanceType, instanceCount: 1, capacityType: 'on-demand' });
      const detail = r.quotas.map((q) => `${q.quotaName}: ${q.inUse} of ${q.value} in use`).join('; ');
      if (r.ok) return { area: 'quotas', status: 'ok', title, detail: detail || 'Room for one more instance.' };
      const fixes = [...r.problems.map((p) => p.remedy ?? p.message), ...r.quotas.flatMap((q) => q.remedy ?? [])];
      return {
        area: 'quotas',
        status: 'missing',
        title,
        detail: [detail, ...r.problems.map((p) => p.message)].filter(Boolean).join('; '),
        fix: [...new Set(fixes)].join(' '),
      };
    } catch (err) {
      return { area: 'quotas', status: 'warning', title, detail: `Could not be read: ${errorText(err)}` };
    }
  }

  private async kubernetesLine(region: string): Promise<DoctorLine> {
    const title = 'Kubernetes versions';
    try {
      const v = await this.port.kubernetesVersions(region);
      const eks = v.versions.filter((o) => o.eks.offered).map((o) => o.version);
      const detail = `EKS offers ${eks.join(', ') || 'none'}; HyperPod supports ${v.hyperpodSupport.versions.join(', ')}`;
      if (v.defaultVersion)
        return { area: 'kubernetes', status: 'ok', title, detail: `${detail}; new clusters get ${v.defaultVersion}.` };
      return {
        area: 'kubernetes',
        status: 'missing',
        title,
        detail: `${detail}: no version both support in ${region}.`,
        fix: 'Choose a Region where EKS offers a version HyperPod supports.',
      };
    } catch (err) {
      return { area: 'kubernetes', status: 'warning', title, detail: `Could not be read: ${errorText(err)}` };
    }
  }

  /** A new cluster's NAT gateway takes one Elastic IP. */
  private async elasticIpLine(region: string): Promise<DoctorLine> {
    const title = 'Elastic IP addresses';
    try {
      const { limit, inUse } = await this.port.elasticIps(region);
      if (limit === undefined)
        return { area: 'network', status: 'warning', title, detail: `${inUse} in use; EC2 did not say the limit.` };
      const detail = `${inUse} of ${limit} in use in ${region}; a new cluster takes one (its NAT gateway).`;
      if (inUse < limit) return { area: 'network', status: 'ok', title, detail };
      return {
        area: 'network',
        status: 'missing',
        title,
        detail,
        fix: `Release an unused Elastic IP, or request more: aws service-quotas request-service-quota-increase --service-code ec2 --quota-code ${ELASTIC_IP_QUOTA} --desired-value ${limit + 1} --region ${region}`,
      };
    } catch (err) {
      return { area: 'network', status: 'warning', title, detail: `Could not be read: ${errorText(err)}` };
    }
  }
}

const errorText = (err: unknown): string =>
  err instanceof CloudError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
