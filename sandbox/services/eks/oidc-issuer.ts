import type { RawHttpResponse, SandboxRuntime } from '../../core/service.js';
import { clusterOidcIssuer } from './public.js';
import { clustersIn } from './state.js';

/**
 * Each sandbox EKS cluster's OIDC issuer (`https://oidc.eks.<region>.amazonaws.com/id/<ID>`, from
 * DescribeCluster `identity.oidc.issuer`): its discovery document and its JWKS, the public half of
 * the cluster's signing key. AWS serves them at the issuer's own host; the sandbox serves them on
 * its HTTP port in two equivalent forms:
 *
 * - the issuer's host and path as the path: `<sandbox>/oidc.eks.<region>.amazonaws.com/id/<ID>/keys`;
 * - the issuer's path with the issuer's host in the `Host` header (a client pointed at the sandbox
 *   for `oidc.eks.<region>.amazonaws.com`, e.g. `curl --connect-to`).
 *
 * Only while the cluster exists; anything else is a 404, as for an unknown issuer.
 */

const HOST = /^oidc\.eks\.([a-z0-9-]+)\.amazonaws\.com$/;
const PATH_FORM = /^\/(oidc\.eks\.[a-z0-9-]+\.amazonaws\.com)(\/id\/[0-9A-F]{32}\/.*)$/;
const ISSUER_PATH = /^\/id\/([0-9A-F]{32})\/(\.well-known\/openid-configuration|keys)$/;

/** The answer when the request is for an issuer document; undefined when it is not (the caller goes on to AWS dispatch). */
export function serveOidcIssuer(
  runtime: SandboxRuntime,
  method: string,
  hostHeader: string | undefined,
  path: string,
): RawHttpResponse | undefined {
  const pathForm = PATH_FORM.exec(path);
  const host = pathForm ? pathForm[1]! : (hostHeader ?? '').replace(/:\d+$/, '').toLowerCase();
  const region = HOST.exec(host)?.[1];
  if (!region) return undefined;
  const m = ISSUER_PATH.exec(pathForm ? pathForm[2]! : path);
  const cluster = m && clustersIn(runtime.store.state, region).find((c) => c.oidcId === m[1]);
  if (!m || !cluster || cluster.status === 'FAILED')
    return {
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Not Found' }),
    };
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, headers: { allow: 'GET, HEAD' } };
  const issuer = clusterOidcIssuer(cluster, region);
  const body =
    m[2] === 'keys'
      ? { keys: [runtime.oidcKeys.publicJwk(cluster.oidcId)] }
      : {
          // Kubernetes' own issuer discovery document, which EKS publishes for the cluster.
          issuer,
          jwks_uri: `${issuer}/keys`,
          authorization_endpoint: 'urn:kubernetes:programmatic_authorization',
          response_types_supported: ['id_token'],
          subject_types_supported: ['public'],
          claims_supported: ['sub', 'iss'],
          id_token_signing_alg_values_supported: ['RS256'],
        };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
