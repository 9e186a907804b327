import { NotFoundError } from '../../domain/errors.js';
import type { DoctorLine } from '../../domain/schemas/doctor.js';
import type { FeatureState } from '../../domain/schemas/features.js';
import type { DoctorReadPort } from './read-port.js';

/**
 * An existing cluster's add-ons and what they stand on, from the features capability's answer (the cluster page's
 * Features tab reads the same): a feature that failed, is half-made (a role it needs is gone) or is on while a
 * feature it needs is not, is a line with its fix; the rest is one ok line.
 */
export async function clusterLines(port: DoctorReadPort, region: string, cluster: string): Promise<DoctorLine[]> {
  const title = `Cluster ${cluster}`;
  let found: FeatureState[];
  try {
    found = (await port.clusterFeatures(region, cluster)).features;
  } catch (err) {
    if (err instanceof NotFoundError)
      return [{ area: 'cluster', status: 'missing', title, detail: `No cluster named ${cluster} in ${region}.` }];
    const why = err instanceof Error ? err.message : String(err);
    return [{ area: 'cluster', status: 'warning', title, detail: `Its add-ons could not be read: ${why}` }];
  }
  const byId = new Map(found.map((f) => [f.id, f]));
  const lines: DoctorLine[] = [];
  const onOrComing = (f: FeatureState) => f.state === 'on' || f.state === 'installing';
  for (const f of found) {
    const what = `${f.title} on ${cluster}`;
    if (f.state === 'failed')
      lines.push({
        area: 'cluster',
        status: 'missing',
        title: `${f.title} failed`,
        detail: f.health ?? 'Its install did not complete.',
        fix: `Turn ${f.title} on again from the cluster's Features tab (or set features): it is reconciled, not reinstalled.`,
      });
    else if (f.state === 'unknown')
      lines.push({ area: 'cluster', status: 'warning', title: `${f.title}: state unknown`, detail: f.health ?? '' });
    if (!onOrComing(f)) continue;
    for (const need of f.needs) {
      const n = byId.get(need);
      if (n && !onOrComing(n))
        lines.push({
          area: 'cluster',
          status: 'missing',
          title: `${what} needs ${n.title}`,
          detail: `${n.title} is ${n.state}.`,
          fix: `Turn ${n.title} on (the cluster's Features tab, or set features).`,
        });
    }
    for (const identity of f.identities.filter((i) => !i.present))
      lines.push({
        area: 'cluster',
        status: 'missing',
        title: `${what}: role ${identity.roleName} is missing`,
        detail: `${identity.title} has no IAM role.`,
        fix: `Apply ${f.title} again (the cluster's Features tab, or set features): its role is made again.`,
      });
  }
  if (lines.length === 0) {
    const on = found.filter((f) => f.state === 'on').map((f) => f.title);
    lines.push({
      area: 'cluster',
      status: 'ok',
      title,
      detail: `${on.length} feature${on.length === 1 ? '' : 's'} on (${on.join(', ') || 'none'}); each has what it needs.`,
    });
  }
  return lines;
}
