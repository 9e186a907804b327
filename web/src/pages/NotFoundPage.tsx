import Alert from '@cloudscape-design/components/alert';
import Link from '@cloudscape-design/components/link';
import { useFollow } from '@kit/hooks/use-follow.js';

export function NotFoundPage() {
  const follow = useFollow();
  return (
    <Alert type="warning" header="Page not found">
      There is nothing at this address.{' '}
      <Link href="/clusters" onFollow={follow}>
        Go to the clusters
      </Link>
      .
    </Alert>
  );
}
