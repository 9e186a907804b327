import type { Finding } from '../schemas/diagnostics.js';
import type { NcclEvidence, NcclRankEvidence } from './nccl-evidence.js';
import { isLibfabricNetwork, ncclSignals, type NcclSignal } from './nccl-log-lines.js';

/**
 * The dynamic half of the NCCL diagnosis: what the ranks printed. Which network NCCL chose, whether the EFA plugin
 * failed to start, and whether a collective timed out or NCCL failed.
 */

/** At most this many evidence lines per finding: the first ranks tell the story, the rest repeat it. */
const MAX_EVIDENCE = 8;

interface RankSignals {
  rank: NcclRankEvidence;
  source: string;
  signals: NcclSignal[];
}

/** Each rank's signals, from its previous run first (what a restarted rank printed before it died), then its current run. */
export function rankSignals(evidence: NcclEvidence): RankSignals[] {
  const out: RankSignals[] = [];
  for (const r of evidence.ranks) {
    if (r.previousLog?.length)
      out.push({ rank: r, source: `rank ${r.rank} previous log`, signals: ncclSignals(r.previousLog) });
    out.push({ rank: r, source: `rank ${r.rank} log`, signals: ncclSignals(r.log) });
  }
  return out;
}

const firstOf = (all: RankSignals[], kind: NcclSignal['kind']) =>
  all
    .flatMap((s) => {
      const hit = s.signals.find((x) => x.kind === kind);
      return hit ? [{ source: s.source, detail: hit.line }] : [];
    })
    .slice(0, MAX_EVIDENCE);

/** How a rank's NCCL talks between nodes, as its log says: efa, another provider, socket, or unknown. */
function transportOf(signals: NcclSignal[]): { transport: 'efa' | 'other' | 'socket'; line: string } | undefined {
  for (const s of [...signals].reverse()) {
    if (s.kind === 'ofi-provider')
      return { transport: s.value?.toLowerCase() === 'efa' ? 'efa' : 'other', line: s.line };
    if (s.kind === 'socket-transport' || (s.kind === 'network' && /^socket$/i.test(s.value ?? '')))
      return { transport: 'socket', line: s.line };
    if (s.kind === 'network' && s.value && !isLibfabricNetwork(s.value)) return { transport: 'other', line: s.line };
  }
  return undefined;
}

export function logFindings(evidence: NcclEvidence, efaExpected: boolean): Finding[] {
  const all = rankSignals(evidence);
  const out: Finding[] = [];

  const timeouts = firstOf(all, 'timeout');
  if (timeouts.length)
    out.push({
      severity: 'critical',
      code: 'nccl-timeout',
      title: `A collective timed out on ${new Set(timeouts.map((t) => t.source.split(' ')[1])).size} rank(s)`,
      explanation:
        'PyTorch’s NCCL watchdog aborts a rank when a collective does not finish within the process group’s timeout ' +
        '(10 minutes by default): a peer stopped (crashed, hung, preempted), or the network between the ranks does ' +
        'not carry NCCL’s traffic (security group, zones, EFA not in use). The ranks whose log does not show the ' +
        'timeout, and the other findings here, point to which.',
      evidence: timeouts,
    });

  const initFailed = firstOf(all, 'ofi-init-failed');
  if (initFailed.length)
    out.push({
      severity: 'critical',
      code: 'efa-init-failed',
      title: 'The EFA plugin (aws-ofi-nccl) found no usable provider',
      explanation:
        'libfabric returned no provider for FI_PROVIDER (no EFA device in the container, or FI_PROVIDER names one ' +
        'that is not there). NCCL then falls back to its socket transport or fails, depending on NCCL_NET.',
      evidence: initFailed,
    });

  const transports = all.flatMap((s) => {
    const t = transportOf(s.signals);
    return t ? [{ ...t, source: s.source }] : [];
  });
  const offEfa = transports.filter((t) => t.transport !== 'efa');
  if (efaExpected && offEfa.length)
    out.push({
      severity: 'critical',
      code: 'efa-not-used',
      title: 'NCCL is not using EFA',
      explanation:
        'The instance type has EFA, but NCCL chose another network (the built-in TCP socket transport, or a ' +
        'libfabric provider other than efa). Inter-node collectives then run over TCP: much slower, and prone to ' +
        'timeouts at scale. The EFA settings and devices findings say why.',
      evidence: offEfa.slice(0, MAX_EVIDENCE).map((t) => ({ source: t.source, detail: t.line })),
    });
  else if (transports.length && !offEfa.length)
    out.push({
      severity: 'info',
      code: 'efa-in-use',
      title: 'NCCL selected the EFA provider',
      explanation: 'aws-ofi-nccl chose libfabric’s efa provider for inter-node traffic.',
      evidence: transports.slice(0, MAX_EVIDENCE).map((t) => ({ source: t.source, detail: t.line })),
    });
  else if (!transports.length && evidence.ranks.length) {
    const debug = evidence.ranks[0]?.env.NCCL_DEBUG;
    out.push({
      severity: 'info',
      code: 'nccl-init-not-logged',
      title: 'The ranks’ logs do not show which network NCCL chose',
      explanation:
        `NCCL prints its network choice (NET/OFI, NET/Socket, "Using network …") at INFO level; NCCL_DEBUG is ${debug ?? 'not set'}` +
        ` and the last ${evidence.logTailLines} lines of each rank were read. Set NCCL_DEBUG=INFO with NCCL_DEBUG_SUBSYS=INIT,NET ` +
        'on the next run to see it.',
      evidence: [],
    });
  }

  const errors = firstOf(all, 'nccl-error');
  if (errors.length)
    out.push({
      severity: timeouts.length ? 'warning' : 'critical',
      code: 'nccl-error',
      title: 'NCCL reported an error',
      explanation:
        'NCCL returned an error to PyTorch or warned of one; the reason in the line ("unhandled system error", ' +
        '"remote process exited or there was a network error") says whether a peer or the network failed.',
      evidence: errors,
    });

  const restarted = evidence.ranks.filter((r) => r.restarts > 0 || r.phase === 'Failed');
  if (restarted.length)
    out.push({
      severity: 'info',
      code: 'rank-restarts',
      title: `${restarted.length} rank(s) restarted or failed`,
      explanation: 'Their previous run’s log (get_job_logs previous=true) holds what they printed before dying.',
      evidence: restarted.slice(0, MAX_EVIDENCE).map((r) => ({
        source: `pod ${evidence.job.namespace}/${r.pod} status`,
        detail: `rank ${r.rank}: phase ${r.phase ?? '?'}, ${r.restarts} restart(s)`,
      })),
    });
  return out;
}
