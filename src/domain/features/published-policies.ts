import type { PolicyDocument } from './policy-document.js';

/**
 * IAM policy documents that projects publish for their controllers, vendored here at a pinned
 * version so a role's permissions never change under a running cluster without a change in this
 * repository (and so nothing is downloaded at runtime). Each entry names its source; to move to a
 * newer version, copy the document from that tag and change the version in the registry.
 */

/**
 * AWS Load Balancer Controller v2.13.0: `docs/install/iam_policy.json` of
 * kubernetes-sigs/aws-load-balancer-controller at tag v2.13.0 (commit 73980cf11d1c79c310f4f14a089554f58b165d7d),
 * Apache License 2.0. The inference operator's add-on runs this controller for its endpoints' ALBs.
 */
const AWS_LOAD_BALANCER_CONTROLLER_V2_13_0: PolicyDocument = {
  Version: '2012-10-17',
  Statement: [
    {
      Effect: 'Allow',
      Action: ['iam:CreateServiceLinkedRole'],
      Resource: '*',
      Condition: { StringEquals: { 'iam:AWSServiceName': 'elasticloadbalancing.amazonaws.com' } },
    },
    {
      Effect: 'Allow',
      Action: [
        'ec2:DescribeAccountAttributes',
        'ec2:DescribeAddresses',
        'ec2:DescribeAvailabilityZones',
        'ec2:DescribeInternetGateways',
        'ec2:DescribeVpcs',
        'ec2:DescribeVpcPeeringConnections',
        'ec2:DescribeSubnets',
        'ec2:DescribeSecurityGroups',
        'ec2:DescribeInstances',
        'ec2:DescribeNetworkInterfaces',
        'ec2:DescribeTags',
        'ec2:GetCoipPoolUsage',
        'ec2:DescribeCoipPools',
        'ec2:GetSecurityGroupsForVpc',
        'ec2:DescribeIpamPools',
        'ec2:DescribeRouteTables',
        'elasticloadbalancing:DescribeLoadBalancers',
        'elasticloadbalancing:DescribeLoadBalancerAttributes',
        'elasticloadbalancing:DescribeListeners',
        'elasticloadbalancing:DescribeListenerCertificates',
        'elasticloadbalancing:DescribeSSLPolicies',
        'elasticloadbalancing:DescribeRules',
        'elasticloadbalancing:DescribeTargetGroups',
        'elasticloadbalancing:DescribeTargetGroupAttributes',
        'elasticloadbalancing:DescribeTargetHealth',
        'elasticloadbalancing:DescribeTags',
        'elasticloadbalancing:DescribeTrustStores',
        'elasticloadbalancing:DescribeListenerAttributes',
        'elasticloadbalancing:DescribeCapacityReservation',
      ],
      Resource: '*',
    },
    {
      Effect: 'Allow',
      Action: [
        'cognito-idp:DescribeUserPoolClient',
        'acm:ListCertificates',
        'acm:DescribeCertificate',
        'iam:ListServerCertificates',
        'iam:GetServerCertificate',
        'waf-regional:GetWebACL',
        'waf-regional:GetWebACLForResource',
        'waf-regional:AssociateWebACL',
        'waf-regional:DisassociateWebACL',
        'wafv2:GetWebACL',
        'wafv2:GetWebACLForResource',
        'wafv2:AssociateWebACL',
        'wafv2:DisassociateWebACL',
        'shield:GetSubscriptionState',
        'shield:DescribeProtection',
        'shield:CreateProtection',
        'shield:DeleteProtection',
      ],
      Resource: '*',
    },
    { Effect: 'Allow', Action: ['ec2:AuthorizeSecurityGroupIngress', 'ec2:RevokeSecurityGroupIngress'], Resource: '*' },
    { Effect: 'Allow', Action: ['ec2:CreateSecurityGroup'], Resource: '*' },
    {
      Effect: 'Allow',
      Action: ['ec2:CreateTags'],
      Resource: 'arn:aws:ec2:*:*:security-group/*',
      Condition: {
        StringEquals: { 'ec2:CreateAction': 'CreateSecurityGroup' },
        Null: { 'aws:RequestTag/elbv2.k8s.aws/cluster': 'false' },
      },
    },
    {
      Effect: 'Allow',
      Action: ['ec2:CreateTags', 'ec2:DeleteTags'],
      Resource: 'arn:aws:ec2:*:*:security-group/*',
      Condition: {
        Null: { 'aws:RequestTag/elbv2.k8s.aws/cluster': 'true', 'aws:ResourceTag/elbv2.k8s.aws/cluster': 'false' },
      },
    },
    {
      Effect: 'Allow',
      Action: ['ec2:AuthorizeSecurityGroupIngress', 'ec2:RevokeSecurityGroupIngress', 'ec2:DeleteSecurityGroup'],
      Resource: '*',
      Condition: { Null: { 'aws:ResourceTag/elbv2.k8s.aws/cluster': 'false' } },
    },
    {
      Effect: 'Allow',
      Action: ['elasticloadbalancing:CreateLoadBalancer', 'elasticloadbalancing:CreateTargetGroup'],
      Resource: '*',
      Condition: { Null: { 'aws:RequestTag/elbv2.k8s.aws/cluster': 'false' } },
    },
    {
      Effect: 'Allow',
      Action: [
        'elasticloadbalancing:CreateListener',
        'elasticloadbalancing:DeleteListener',
        'elasticloadbalancing:CreateRule',
        'elasticloadbalancing:DeleteRule',
      ],
      Resource: '*',
    },
    {
      Effect: 'Allow',
      Action: ['elasticloadbalancing:AddTags', 'elasticloadbalancing:RemoveTags'],
      Resource: [
        'arn:aws:elasticloadbalancing:*:*:targetgroup/*/*',
        'arn:aws:elasticloadbalancing:*:*:loadbalancer/net/*/*',
        'arn:aws:elasticloadbalancing:*:*:loadbalancer/app/*/*',
      ],
      Condition: {
        Null: { 'aws:RequestTag/elbv2.k8s.aws/cluster': 'true', 'aws:ResourceTag/elbv2.k8s.aws/cluster': 'false' },
      },
    },
    {
      Effect: 'Allow',
      Action: ['elasticloadbalancing:AddTags', 'elasticloadbalancing:RemoveTags'],
      Resource: [
        'arn:aws:elasticloadbalancing:*:*:listener/net/*/*/*',
        'arn:aws:elasticloadbalancing:*:*:listener/app/*/*/*',
        'arn:aws:elasticloadbalancing:*:*:listener-rule/net/*/*/*',
        'arn:aws:elasticloadbalancing:*:*:listener-rule/app/*/*/*',
      ],
    },
    {
      Effect: 'Allow',
      Action: [
        'elasticloadbalancing:ModifyLoadBalancerAttributes',
        'elasticloadbalancing:SetIpAddressType',
        'elasticloadbalancing:SetSecurityGroups',
        'elasticloadbalancing:SetSubnets',
        'elasticloadbalancing:DeleteLoadBalancer',
        'elasticloadbalancing:ModifyTargetGroup',
        'elasticloadbalancing:ModifyTargetGroupAttributes',
        'elasticloadbalancing:DeleteTargetGroup',
        'elasticloadbalancing:ModifyListenerAttributes',
        'elasticloadbalancing:ModifyCapacityReservation',
        'elasticloadbalancing:ModifyIpPools',
      ],
      Resource: '*',
      Condition: { Null: { 'aws:ResourceTag/elbv2.k8s.aws/cluster': 'false' } },
    },
    {
      Effect: 'Allow',
      Action: ['elasticloadbalancing:AddTags'],
      Resource: [
        'arn:aws:elasticloadbalancing:*:*:targetgroup/*/*',
        'arn:aws:elasticloadbalancing:*:*:loadbalancer/net/*/*',
        'arn:aws:elasticloadbalancing:*:*:loadbalancer/app/*/*',
      ],
      Condition: {
        StringEquals: { 'elasticloadbalancing:CreateAction': ['CreateTargetGroup', 'CreateLoadBalancer'] },
        Null: { 'aws:RequestTag/elbv2.k8s.aws/cluster': 'false' },
      },
    },
    {
      Effect: 'Allow',
      Action: ['elasticloadbalancing:RegisterTargets', 'elasticloadbalancing:DeregisterTargets'],
      Resource: 'arn:aws:elasticloadbalancing:*:*:targetgroup/*/*',
    },
    {
      Effect: 'Allow',
      Action: [
        'elasticloadbalancing:SetWebAcl',
        'elasticloadbalancing:ModifyListener',
        'elasticloadbalancing:AddListenerCertificates',
        'elasticloadbalancing:RemoveListenerCertificates',
        'elasticloadbalancing:ModifyRule',
        'elasticloadbalancing:SetRulePriorities',
      ],
      Resource: '*',
    },
  ],
};

/** The vendored documents, by project and version. */
const PUBLISHED: ReadonlyMap<string, PolicyDocument> = new Map([
  ['aws-load-balancer-controller@v2.13.0', AWS_LOAD_BALANCER_CONTROLLER_V2_13_0],
]);

/** The published policy of `project` at `version`; throws for a pair not vendored (a registry error caught by the unit tests). */
export function publishedPolicy(project: 'aws-load-balancer-controller', version: string): PolicyDocument {
  const doc = PUBLISHED.get(`${project}@${version}`);
  if (!doc)
    throw new Error(
      `no vendored ${project} policy at ${version}: vendor it in src/domain/features/published-policies.ts`,
    );
  return doc;
}
