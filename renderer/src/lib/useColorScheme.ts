import { useSyncExternalStore } from 'react';

const query = () => window.matchMedia('(prefers-color-scheme: dark)');

/** The OS colour scheme, live (the app follows it; cards rendered in frames need it explicitly). */
export function useColorScheme(): 'light' | 'dark' {
  return useSyncExternalStore(
    (cb) => {
      const mq = query();
      mq.addEventListener('change', cb);
      return () => mq.removeEventListener('change', cb);
    },
    () => (query().matches ? 'dark' : 'light'),
    () => 'light',
  );
}
