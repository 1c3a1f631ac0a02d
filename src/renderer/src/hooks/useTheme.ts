import { useEffect } from 'react';
import { useStudio } from '../stores/studio-store.ts';

/** Puts the chosen theme on <html data-theme>; "system" leaves it to prefers-color-scheme. */
export function useTheme(): void {
  const theme = useStudio((s) => s.settings?.theme ?? 'system');
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
}
