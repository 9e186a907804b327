import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';

interface FollowDetail {
  href?: string;
  external?: boolean;
}

/**
 * Cloudscape links and navigation emit `onFollow`; plain clicks become client-side navigation,
 * modified clicks (new tab) and external links keep the browser's behaviour.
 */
export function useFollow() {
  const navigate = useNavigate();
  return useCallback(
    (event: CustomEvent<FollowDetail> & { detail: FollowDetail }) => {
      const { href, external } = event.detail;
      if (!href || external || href.startsWith('http') || href.startsWith('/api/')) return;
      event.preventDefault();
      navigate(href);
    },
    [navigate],
  );
}
