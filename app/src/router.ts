import { useEffect, useState } from 'react';

/**
 * The app's own paths under /app, with the browser's history: enough routing for a handful of screens. A click on
 * a link into the app moves within the page instead of loading it again; any other click is the browser's.
 */

const BASE = '/app';

const current = () => window.location.pathname + window.location.search;

/** The path under /app (`/documents`), kept current as the person moves. */
export function usePath(): string {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const changed = () => setLocation(current());
    const followed = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest('a');
      const href = link?.getAttribute('href');
      if (
        !href?.startsWith(`${BASE}/`) ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey ||
        link?.target
      )
        return;
      event.preventDefault();
      navigate(href.slice(BASE.length));
    };
    window.addEventListener('popstate', changed);
    document.addEventListener('click', followed);
    return () => {
      window.removeEventListener('popstate', changed);
      document.removeEventListener('click', followed);
    };
  }, []);
  const path = location.split('?')[0]!.slice(BASE.length) || '/';
  return path.startsWith('/') ? path : `/${path}`;
}

export function navigate(path: string): void {
  window.history.pushState(null, '', `${BASE}${path}`);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export const hrefOf = (path: string) => `${BASE}${path}`;
