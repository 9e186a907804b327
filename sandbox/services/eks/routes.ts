import type { RestRoute } from '../../core/service.js';

/** EKS's REST bindings (method, path, query parameters), as the service model declares them. */
const paging = { maxResults: 'maxResults', nextToken: 'nextToken' };

export const EKS_ROUTES: RestRoute[] = [
  { method: 'POST', path: '/clusters', operation: 'CreateCluster' },
  {
    method: 'GET',
    path: '/clusters',
    operation: 'ListClusters',
    query: { ...paging, include: 'include' },
    listQuery: ['include'],
  },
  { method: 'GET', path: '/clusters/{name}', operation: 'DescribeCluster' },
  { method: 'DELETE', path: '/clusters/{name}', operation: 'DeleteCluster' },
  {
    method: 'GET',
    path: '/cluster-versions',
    operation: 'DescribeClusterVersions',
    query: {
      ...paging,
      clusterType: 'clusterType',
      defaultOnly: 'defaultOnly',
      includeAll: 'includeAll',
      clusterVersions: 'clusterVersions',
      status: 'status',
      versionStatus: 'versionStatus',
    },
    listQuery: ['clusterVersions'],
  },
  { method: 'POST', path: '/clusters/{name}/update-config', operation: 'UpdateClusterConfig' },
  {
    method: 'GET',
    path: '/clusters/{name}/updates/{updateId}',
    operation: 'DescribeUpdate',
    query: { nodegroupName: 'nodegroupName', addonName: 'addonName', capabilityName: 'capabilityName' },
  },
  {
    method: 'GET',
    path: '/clusters/{name}/updates',
    operation: 'ListUpdates',
    query: { ...paging, nodegroupName: 'nodegroupName', addonName: 'addonName', capabilityName: 'capabilityName' },
  },

  {
    method: 'GET',
    path: '/addons/supported-versions',
    operation: 'DescribeAddonVersions',
    query: {
      ...paging,
      kubernetesVersion: 'kubernetesVersion',
      addonName: 'addonName',
      types: 'types',
      publishers: 'publishers',
      owners: 'owners',
    },
    listQuery: ['types', 'publishers', 'owners'],
  },
  {
    method: 'GET',
    path: '/addons/configuration-schemas',
    operation: 'DescribeAddonConfiguration',
    query: { addonName: 'addonName', addonVersion: 'addonVersion' },
  },
  { method: 'POST', path: '/clusters/{clusterName}/addons', operation: 'CreateAddon' },
  { method: 'GET', path: '/clusters/{clusterName}/addons', operation: 'ListAddons', query: paging },
  { method: 'GET', path: '/clusters/{clusterName}/addons/{addonName}', operation: 'DescribeAddon' },
  { method: 'POST', path: '/clusters/{clusterName}/addons/{addonName}/update', operation: 'UpdateAddon' },
  {
    method: 'DELETE',
    path: '/clusters/{clusterName}/addons/{addonName}',
    operation: 'DeleteAddon',
    query: { preserve: 'preserve' },
  },

  { method: 'POST', path: '/clusters/{clusterName}/access-entries', operation: 'CreateAccessEntry' },
  {
    method: 'GET',
    path: '/clusters/{clusterName}/access-entries',
    operation: 'ListAccessEntries',
    query: { ...paging, associatedPolicyArn: 'associatedPolicyArn' },
  },
  { method: 'GET', path: '/clusters/{clusterName}/access-entries/{principalArn}', operation: 'DescribeAccessEntry' },
  { method: 'POST', path: '/clusters/{clusterName}/access-entries/{principalArn}', operation: 'UpdateAccessEntry' },
  { method: 'DELETE', path: '/clusters/{clusterName}/access-entries/{principalArn}', operation: 'DeleteAccessEntry' },
  {
    method: 'POST',
    path: '/clusters/{clusterName}/access-entries/{principalArn}/access-policies',
    operation: 'AssociateAccessPolicy',
  },
  {
    method: 'GET',
    path: '/clusters/{clusterName}/access-entries/{principalArn}/access-policies',
    operation: 'ListAssociatedAccessPolicies',
    query: paging,
  },
  {
    method: 'DELETE',
    path: '/clusters/{clusterName}/access-entries/{principalArn}/access-policies/{policyArn}',
    operation: 'DisassociateAccessPolicy',
  },
  { method: 'GET', path: '/access-policies', operation: 'ListAccessPolicies', query: paging },

  {
    method: 'POST',
    path: '/clusters/{clusterName}/pod-identity-associations',
    operation: 'CreatePodIdentityAssociation',
  },
  {
    method: 'GET',
    path: '/clusters/{clusterName}/pod-identity-associations',
    operation: 'ListPodIdentityAssociations',
    query: { ...paging, namespace: 'namespace', serviceAccount: 'serviceAccount' },
  },
  {
    method: 'GET',
    path: '/clusters/{clusterName}/pod-identity-associations/{associationId}',
    operation: 'DescribePodIdentityAssociation',
  },
  {
    method: 'POST',
    path: '/clusters/{clusterName}/pod-identity-associations/{associationId}',
    operation: 'UpdatePodIdentityAssociation',
  },
  {
    method: 'DELETE',
    path: '/clusters/{clusterName}/pod-identity-associations/{associationId}',
    operation: 'DeletePodIdentityAssociation',
  },

  { method: 'POST', path: '/tags/{resourceArn}', operation: 'TagResource' },
  {
    method: 'DELETE',
    path: '/tags/{resourceArn}',
    operation: 'UntagResource',
    query: { tagKeys: 'tagKeys' },
    listQuery: ['tagKeys'],
  },
  { method: 'GET', path: '/tags/{resourceArn}', operation: 'ListTagsForResource' },
];
