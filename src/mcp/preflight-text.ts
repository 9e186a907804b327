import type { QuotaCheckResult } from '../domain/schemas/preflight.js';

/** Shared wording of check_quotas and check_cluster_request: problems first, each with its fix. */
export function describeCheck(result: QuotaCheckResult, okNext: string): string {
  const lines: string[] = [];
  if (result.ok) lines.push(`OK: nothing blocks this request. ${okNext}`);
  else
    lines.push(
      `NOT OK: ${result.problems.length} problem(s) would make the request fail. Do not create until each is fixed.`,
    );
  for (const p of result.problems)
    lines.push(`- ${p.field}: ${p.message}${p.remedy ? ` Fix: ${p.remedy}` : ''} (${p.code})`);
  for (const q of result.quotas) {
    const mark = q.ok ? 'ok' : 'SHORT';
    lines.push(
      `- quota "${q.quotaName}": limit ${q.value}, in use ${q.inUse}, requested ${q.requested} [${mark}]${!q.ok && q.remedy ? ` Fix: ${q.remedy}` : ''}`,
    );
  }
  if (result.kubernetesVersion)
    lines.push(
      `- the EKS cluster would run Kubernetes ${result.kubernetesVersion} (EKS offers it and SageMaker HyperPod supports it)`,
    );
  return lines.join('\n');
}
