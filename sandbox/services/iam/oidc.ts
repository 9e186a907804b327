import { keyed } from '../../core/keyed.js';
import { z } from 'zod';
import type { OperationHandler } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { alreadyExists, invalidInput, noSuchEntity } from './errors.js';
import { renderOidcProvider } from './render.js';
import { pageOf } from './paging.js';
import { arnType, clientIdList, IAM_VALIDATION, oidcUrl, paging, tagKeys, tags, thumbprintList } from './schemas.js';
import { iamSection, peekIam, type StoredOidcProvider } from './state.js';
import { checkNewTags } from './tags.js';

/**
 * OpenID Connect identity providers (EKS IRSA: one per cluster issuer). The ARN is the issuer's
 * host and path: `arn:aws:iam::<account>:oidc-provider/oidc.eks.<region>.amazonaws.com/id/<ID>`.
 */

/** `https://host/path` → `host/path` (no trailing slash), or InvalidInput as IAM says it. */
function providerResource(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidInput(`Invalid OpenID Connect provider URL: ${url}`);
  }
  if (parsed.protocol !== 'https:')
    throw invalidInput('The URL of the OpenID Connect provider must begin with https://.');
  if (parsed.search || parsed.hash || parsed.port || parsed.username) {
    throw invalidInput('The URL of the OpenID Connect provider must not contain a port, query string or fragment.');
  }
  return `${parsed.host}${parsed.pathname}`.replace(/\/+$/, '');
}

const createSchema = z.object({
  Url: oidcUrl,
  ClientIDList: clientIdList.optional(),
  ThumbprintList: thumbprintList.optional(),
  Tags: tags.optional(),
});

const createOpenIDConnectProvider: OperationHandler = (input, ctx) => {
  const req = validateInput(createSchema, input, IAM_VALIDATION);
  const resource = providerResource(req.Url);
  const newTags = checkNewTags([], req.Tags ?? []);
  const arn = `arn:aws:iam::${ctx.accountId}:oidc-provider/${resource}`;
  if (keyed.get(peekIam(ctx.state)?.oidcProviders, arn))
    throw alreadyExists(`Provider with url https://${resource} already exists.`);
  const provider: StoredOidcProvider = {
    arn,
    url: `https://${resource}`,
    clientIds: [...new Set(req.ClientIDList ?? [])],
    thumbprints: req.ThumbprintList ?? [],
    createDate: ctx.now(),
    tags: newTags,
  };
  keyed.set(iamSection(ctx.state).oidcProviders, arn, provider);
  return { OpenIDConnectProviderArn: arn, Tags: newTags.length > 0 ? newTags : undefined };
};

const arnOnly = z.object({ OpenIDConnectProviderArn: arnType });

function requireProvider(state: Parameters<typeof peekIam>[0], arn: string): StoredOidcProvider {
  const provider = keyed.get(peekIam(state)?.oidcProviders, arn);
  if (!provider) throw noSuchEntity(`OpenIDConnect Provider not found for arn ${arn}`);
  return provider;
}

const getOpenIDConnectProvider: OperationHandler = (input, ctx) => {
  const req = validateInput(arnOnly, input, IAM_VALIDATION);
  return renderOidcProvider(requireProvider(ctx.state, req.OpenIDConnectProviderArn));
};

const listOpenIDConnectProviders: OperationHandler = (_input, ctx) => ({
  OpenIDConnectProviderList: keyed
    .keys(peekIam(ctx.state)?.oidcProviders)
    .sort()
    .map((Arn) => ({ Arn })),
});

const deleteOpenIDConnectProvider: OperationHandler = (input, ctx) => {
  const req = validateInput(arnOnly, input, IAM_VALIDATION);
  const provider = requireProvider(ctx.state, req.OpenIDConnectProviderArn);
  keyed.delete(iamSection(ctx.state).oidcProviders, provider.arn);
  return {};
};

/** Provider tags, as for roles: IAM tag keys are case-insensitive; a new value for a key replaces it. */
const tagOpenIDConnectProvider: OperationHandler = (input, ctx) => {
  const req = validateInput(z.object({ OpenIDConnectProviderArn: arnType, Tags: tags }), input, IAM_VALIDATION);
  const provider = requireProvider(ctx.state, req.OpenIDConnectProviderArn);
  provider.tags = checkNewTags(provider.tags, req.Tags);
  return {};
};

const untagOpenIDConnectProvider: OperationHandler = (input, ctx) => {
  const req = validateInput(z.object({ OpenIDConnectProviderArn: arnType, TagKeys: tagKeys }), input, IAM_VALIDATION);
  const provider = requireProvider(ctx.state, req.OpenIDConnectProviderArn);
  const drop = new Set(req.TagKeys.map((k) => k.toLowerCase()));
  provider.tags = provider.tags.filter((t) => !drop.has(t.Key.toLowerCase()));
  return {};
};

const listOpenIDConnectProviderTags: OperationHandler = (input, ctx) => {
  const req = validateInput(z.object({ OpenIDConnectProviderArn: arnType, ...paging }), input, IAM_VALIDATION);
  const { page, ...rest } = pageOf(requireProvider(ctx.state, req.OpenIDConnectProviderArn).tags, req);
  return { Tags: page, ...rest };
};

export const oidcOperations: Record<string, OperationHandler> = {
  TagOpenIDConnectProvider: tagOpenIDConnectProvider,
  UntagOpenIDConnectProvider: untagOpenIDConnectProvider,
  ListOpenIDConnectProviderTags: listOpenIDConnectProviderTags,
  CreateOpenIDConnectProvider: createOpenIDConnectProvider,
  GetOpenIDConnectProvider: getOpenIDConnectProvider,
  ListOpenIDConnectProviders: listOpenIDConnectProviders,
  DeleteOpenIDConnectProvider: deleteOpenIDConnectProvider,
};
