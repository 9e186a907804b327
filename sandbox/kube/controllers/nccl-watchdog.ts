import type { Text, TrainingRun } from './training-recipes.js';
import { unit } from './util.js';

/**
 * What a rank prints when PyTorch's NCCL watchdog finds a collective past its timeout, in the words of PyTorch 2.x
 * (torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp; the lines as users posted them in pytorch/pytorch#118369,
 * hiyouga/LlamaFactory#7396, XPixelGroup/BasicSR#737): each local process's watchdog reports the WorkNCCL that
 * timed out, says it takes the process down, and the process aborts (SIGABRT) — then torchrun's elastic agent
 * reports the failed worker (exitcode -6) and ends with ChildFailedError, so the container exits 1. The sequence
 * number and sizes are made up (assumed); the timeout is the process group's (PyTorch's default for NCCL: 10 min).
 */

/** PyTorch's default NCCL process-group timeout (torch.distributed default_pg_nccl_timeout, 10 minutes). */
export const DEFAULT_NCCL_TIMEOUT_MS = 600_000;

/** `E1207 17:10:08.408271` — the glog-style clock c10 logs with (`[E<mmdd> <hh:mm:ss.micro> <file>:<line>]`). */
function clock(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${String(d.getUTCMilliseconds()).padStart(3, '0')}000`;
}

export function ncclWatchdogLines(run: TrainingRun, step: number, timeoutMs: number): Text[] {
  const seq = 7 + step * 3;
  const numel = 1 + Math.floor(unit(`${run.jobSeed}|numel`) * 500_000_000);
  const work = `WorkNCCL(SeqNum=${seq}, OpType=ALLREDUCE, NumelIn=${numel}, NumelOut=${numel}, Timeout(ms)=${timeoutMs})`;
  const out: Text[] = [];
  const locals = Math.min(run.nproc, 8);
  for (let local = 0; local < locals; local++) {
    const r = run.rank * run.nproc + local;
    const ranFor = timeoutMs + 10 + Math.floor(unit(`${run.seed}|wd${local}`) * 90);
    const e = (line: number, text: string) => (at: number) =>
      `[rank${r}]:[E${clock(at)} ProcessGroupNCCL.cpp:${line}] ${text}`;
    const caught = `[Rank ${r}] Watchdog caught collective operation timeout: ${work} ran for ${ranFor} milliseconds before timing out.`;
    const pg = `[PG ID 0 PG GUID 0(default_pg) Rank ${r}]`;
    out.push(
      e(616, caught),
      e(
        1785,
        `${pg} Exception (either an error or timeout) detected by watchdog at work: ${seq}, last enqueued NCCL work: ${seq + 2}, last completed NCCL work: ${seq - 1}.`,
      ),
      e(
        630,
        `[Rank ${r}] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.`,
      ),
      e(636, `[Rank ${r}] To avoid data inconsistency, we are taking the entire process down.`),
      e(1595, `${pg} Process group watchdog thread terminated with exception: ${caught}`),
    );
  }
  out.push("terminate called after throwing an instance of 'c10::DistBackendError'");
  const pid = 100 + Math.floor(unit(`${run.seed}|pid0`) * 9000);
  const script = /(\S+\.py)\b/.exec(run.command)?.[1] ?? 'train.py';
  out.push(
    (at) =>
      `E${clock(at)} ${100 + Math.floor(unit(`${run.seed}|pidagent`) * 9000)} torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -6) local_rank: 0 (pid: ${pid}) of binary: /usr/bin/python3`,
    `torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ${script} FAILED`,
    `[0]: rank: ${run.rank * run.nproc} (local_rank: 0) exitcode: -6 (pid: ${pid}) error_file: <N/A> traceback: Signal 6 (SIGABRT) received by PID ${pid}`,
  );
  return out;
}
