import Badge from '@cloudscape-design/components/badge';
import Box from '@cloudscape-design/components/box';
import SideNavigation from '@cloudscape-design/components/side-navigation';
import { useConfig } from '@kit/api/server-config.js';
import { useLiveStatus } from '@kit/hooks/live-context.js';
import { useFollow } from '@kit/hooks/use-follow.js';
import { useLocation } from 'react-router-dom';
import { NAVIGATION } from '../capabilities.js';

/** Which cloud the server talks to: users must know whether anything they do costs money. */
export function CloudBadge() {
  const config = useConfig();
  if (!config.data) return null;
  return config.data.cloud === 'sandbox' ? (
    <span
      data-testid="cloud-mode"
      data-cloud="sandbox"
      title="A local simulated cloud: nothing is created in AWS and nothing costs money."
    >
      <Badge color="green">Sandbox cloud</Badge>
    </span>
  ) : (
    <span
      data-testid="cloud-mode"
      data-cloud="aws"
      data-ready={String(config.data.cloudAccess.ready)}
      title="Real AWS: what you create here is billed to your account."
    >
      <Badge color="red">AWS</Badge>
      {!config.data.cloudAccess.ready && (
        <Box color="text-status-error" fontSize="body-s" data-testid="cloud-not-connected">
          not connected: see the banner
        </Box>
      )}
    </span>
  );
}

export function Navigation() {
  const follow = useFollow();
  const location = useLocation();
  const config = useConfig();
  const live = useLiveStatus();
  const active = NAVIGATION.find((n) => location.pathname.startsWith(n.section))?.href ?? '/clusters';
  return (
    <div data-testid="side-navigation">
      <SideNavigation
        header={{ text: 'InstantStart', href: '/clusters' }}
        activeHref={active}
        onFollow={follow}
        items={[
          ...NAVIGATION.map((n) => ({ type: 'link' as const, text: n.text, href: n.href })),
          { type: 'divider' },
          { type: 'link', text: 'REST API (OpenAPI)', href: '/api/openapi.json', external: true },
        ]}
      />
      <Box padding={{ horizontal: 'l', vertical: 'm' }}>
        <Box variant="awsui-key-label">Cloud</Box>
        <CloudBadge />
        {config.data && (
          <Box variant="small" display="block" color="text-body-secondary" data-testid="cloud-details">
            {config.data.region}
            {config.data.accountId ? ` · account ${config.data.accountId}` : ''}
            {config.data.version ? ` · v${config.data.version}` : ''}
          </Box>
        )}
        <Box variant="small" display="block" color="text-body-secondary" data-testid="live-status">
          {live.connected ? 'Live updates on' : 'Live updates off — refreshing every 5 s'}
        </Box>
      </Box>
    </div>
  );
}
