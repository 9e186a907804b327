import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { createEksToken, EKS_TOKEN_RENEW_AFTER_MS, type CredentialsProvider } from './eks-token.js';

/**
 * The EKS token of one cluster, signed once and reused until it is 12 minutes old (EKS refuses it
 * after 15), then signed again before the next request — so a client held for hours never sends a
 * token the cluster would refuse. `renew` is for a 401 anyway (credentials rotated, a clock
 * behind): it signs with credentials fetched afresh. Concurrent callers share one signing.
 */
export interface EksTokenSourceOptions {
  clusterName: string;
  region: string;
  credentials?: CredentialsProvider;
  /** Epoch ms; tests move it to cross the renewal age without waiting. */
  now?: () => number;
  renewAfterMs?: number;
}

interface Signed {
  token: string;
  signedAt: number;
}

export class EksTokenSource {
  private held?: Signed;
  private pending?: Promise<Signed>;
  private readonly credentials: CredentialsProvider;
  private readonly now: () => number;
  private readonly renewAfterMs: number;

  constructor(private readonly options: EksTokenSourceOptions) {
    this.credentials = options.credentials ?? defaultProvider();
    this.now = options.now ?? Date.now;
    this.renewAfterMs = options.renewAfterMs ?? EKS_TOKEN_RENEW_AFTER_MS;
  }

  /** A token the cluster accepts for at least three more minutes. */
  async token(): Promise<string> {
    if (this.held && this.now() - this.held.signedAt < this.renewAfterMs) return this.held.token;
    return (await this.signOnce(false)).token;
  }

  /**
   * A new token after the cluster refused `refused`; when another caller already replaced that
   * token, its replacement (one renewal per refusal, however many requests saw it).
   */
  async renew(refused: string): Promise<string> {
    if (this.held && this.held.token !== refused) return this.held.token;
    return (await this.signOnce(true)).token;
  }

  private signOnce(fresh: boolean): Promise<Signed> {
    this.pending ??= this.sign(fresh).finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async sign(fresh: boolean): Promise<Signed> {
    const now = this.now();
    // After a refusal the SDK's cached credentials may be what the cluster refused: fetch them again.
    const credentials: CredentialsProvider = fresh
      ? () => this.credentials({ forceRefresh: true })
      : () => this.credentials();
    const t = await createEksToken({
      clusterName: this.options.clusterName,
      region: this.options.region,
      credentials,
      now: new Date(now),
    });
    this.held = { token: t.token, signedAt: now };
    return this.held;
  }
}
