import { useEffect } from 'react';
import { useStudio } from '../state/studio-state.ts';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * Puts the theme in force on <html data-theme="light|dark">: the chosen one, or for "system"
 * the one the operating system prefers, followed live. The stylesheet then needs a single
 * dark palette.
 */
export function useTheme(): void {
  const theme = useStudio((s) => s.settings?.theme ?? 'system');
  useEffect(() => {
    const root = document.documentElement;
    if (theme !== 'system') {
      root.dataset.theme = theme;
      return;
    }
    const query = window.matchMedia(DARK_QUERY);
    const apply = () => {
      root.dataset.theme = query.matches ? 'dark' : 'light';
    };
    apply();
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, [theme]);
}
