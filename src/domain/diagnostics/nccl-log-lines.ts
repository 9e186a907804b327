/**
 * What NCCL, the aws-ofi-nccl plugin, libfabric and PyTorch print that tells which network a rank uses and how it
 * failed. Each pattern is written from the upstream format it matches (named in its comment); lines are matched
 * anywhere in a log line, so prefixes (`[rank3]:`, `host:pid:tid [local]`, timestamps) do not matter.
 */

export type NcclSignalKind =
  /** aws-ofi-nccl chose a libfabric provider (`efa`, `tcp`, `sockets`). */
  | 'ofi-provider'
  /** NCCL's network for inter-node traffic: a plugin's name (`AWS Libfabric`, `Libfabric`) or `Socket`, `IB`. */
  | 'network'
  /** NCCL's built-in socket transport picked an interface: inter-node traffic goes over TCP. */
  | 'socket-transport'
  /** aws-ofi-nccl (or libfabric under it) found no usable provider: NCCL falls back to sockets or fails. */
  | 'ofi-init-failed'
  /** A communicator finished initialising. */
  | 'init-complete'
  /** A collective or a connection timed out (NCCL's own warning, PyTorch's watchdog, ProcessGroupNCCL). */
  | 'timeout'
  /** Any other NCCL error PyTorch raised (`DistBackendError: NCCL error in: …`) or NCCL warned of. */
  | 'nccl-error';

export interface NcclSignal {
  kind: NcclSignalKind;
  /** The value it names: the provider, the network, the collective that timed out. */
  value?: string;
  /** The line as printed (trimmed to a readable length). */
  line: string;
}

const MAX_LINE = 400;

interface Rule {
  kind: NcclSignalKind;
  pattern: RegExp;
  value?: (m: RegExpExecArray) => string | undefined;
}

const RULES: Rule[] = [
  // aws-ofi-nccl, src/nccl_ofi_net.c: NCCL_OFI_INFO(NCCL_INIT | NCCL_NET, "Selected Provider is %s (found %d nics)")
  // (1.x); newer releases print "Selected provider is %s, fabric is %s (found %d nics)". Both under `NET/OFI`.
  { kind: 'ofi-provider', pattern: /NET\/OFI Selected [Pp]rovider is ([\w;.-]+)/, value: (m) => m[1] },
  // NCCL src/init.cc: INFO(NCCL_INIT|NCCL_NET, "Using network %s", comm->ncclNet->name) — "AWS Libfabric" or
  // "Libfabric" (the aws-ofi-nccl plugin's name across versions), "Socket", "IB".
  { kind: 'network', pattern: /NCCL INFO Using network ([\w ]+?)\s*$/, value: (m) => m[1] },
  // NCCL src/transport/net_socket.cc: INFO(NCCL_INIT|NCCL_NET, "NET/Socket : Using%s", line) — e.g.
  // "NET/Socket : Using [0]eth0:10.1.2.3<0>".
  { kind: 'socket-transport', pattern: /NET\/Socket : Using /, value: () => 'Socket' },
  // aws-ofi-nccl: NCCL_OFI_WARN("OFI fi_getinfo() call failed: %s", fi_strerror(ret)) ("No data available" when no
  // provider matches FI_PROVIDER), then "Unable to find a protocol that worked.  Failing initialization." and
  // "aws-ofi-nccl initialization failed"; libfabric itself logs "fi_getinfo: provider efa output empty list".
  {
    kind: 'ofi-init-failed',
    pattern:
      /NET\/OFI (?:OFI fi_getinfo\(\) call failed.*|Unable to find a protocol that worked.*|aws-ofi-nccl initialization failed.*)|fi_getinfo: provider efa output empty list/,
    value: (m) => m[0],
  },
  // NCCL src/init.cc: INFO(NCCL_INIT, "comm %p rank %d nranks %d … - Init COMPLETE") (older: "… Init COMPLETE").
  { kind: 'init-complete', pattern: /NCCL INFO .*Init COMPLETE/ },
  // PyTorch torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp (2.x): "[Rank 3] Watchdog caught collective operation
  // timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=…, NumelOut=…, Timeout(ms)=600000) ran for 600060
  // milliseconds before timing out." — the same text is repeated in "Process group watchdog thread terminated with
  // exception: …". Older releases: "[E ProcessGroupNCCL.cpp:…] … Operation timed out!" / "… timed out".
  {
    kind: 'timeout',
    pattern: /Watchdog caught collective operation timeout: WorkNCCL\(([^)]*)\)|ProcessGroupNCCL.*timed out/,
    value: (m) => (m[1] ? /OpType=(\w+)/.exec(m[1])?.[1] : undefined),
  },
  // NCCL's own warnings (NCCL_DEBUG=WARN or INFO), "host:pid:tid [dev] NCCL WARN …": a timeout among them (a
  // socket connect or a proxy wait that timed out) is a timeout; any other NCCL WARN is an error below.
  { kind: 'timeout', pattern: /NCCL WARN .*\b[Tt]ime(?:d ?out|out)\b/ },
  // PyTorch: "torch.distributed.DistBackendError: NCCL error in: …ProcessGroupNCCL.cpp:…, <reason>, NCCL version …"
  // (reasons: "unhandled system error", "remote process exited or there was a network error", "internal error").
  { kind: 'nccl-error', pattern: /NCCL error in: [^,]*, ([^,]+)/, value: (m) => m[1]?.trim() },
  { kind: 'nccl-error', pattern: /NCCL WARN (.+)$/, value: (m) => m[1]?.trim() },
];

/** The signals of one log, in order; a line gives at most one (the first rule that matches). */
export function ncclSignals(lines: readonly string[]): NcclSignal[] {
  const out: NcclSignal[] = [];
  for (const raw of lines) {
    if (!/NCCL|NET\/OFI|fi_getinfo|WorkNCCL/.test(raw)) continue;
    for (const rule of RULES) {
      const m = rule.pattern.exec(raw);
      if (!m) continue;
      const value = rule.value?.(m);
      out.push({ kind: rule.kind, ...(value ? { value } : {}), line: raw.trim().slice(0, MAX_LINE) });
      break;
    }
  }
  return out;
}

/** Networks that mean NCCL talks through libfabric (aws-ofi-nccl), i.e. EFA when the provider is efa. */
export const isLibfabricNetwork = (network: string) => /libfabric|ofi/i.test(network);
