/** An IAM OpenID Connect identity provider (IRSA: one per EKS cluster issuer). */
export interface IamOidcProvider {
  arn: string;
  /** The issuer's host and path, without `https://` (as IAM answers it). */
  url: string;
  clientIds: string[];
  tags: Record<string, string>;
}

export interface IamOidcProvidersPort {
  /** Every provider of the account, each described (ListOpenIDConnectProviders + GetOpenIDConnectProvider). */
  list(): Promise<IamOidcProvider[]>;
  /**
   * Creates the provider for `issuerUrl` (`https://…`) with these client ids and tags. No thumbprint is
   * sent: IAM then keeps the issuer's top intermediate CA thumbprint itself. An existing one is found.
   */
  create(issuerUrl: string, clientIds: string[], tags: Record<string, string>): Promise<string>;
  /** Deletes it; "already gone" is success. */
  delete(arn: string): Promise<void>;
}
