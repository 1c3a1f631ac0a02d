/** The player's icons: small inline SVGs in the text colour, hidden from assistive technology. */

const PATHS = {
  play: 'M8 5.5v13a1 1 0 0 0 1.5.86l10.4-6.5a1 1 0 0 0 0-1.72L9.5 4.64A1 1 0 0 0 8 5.5z',
  pause: 'M7 5h3.5v14H7zM13.5 5H17v14h-3.5z',
  previous:
    'M6 5h2.5v14H6zM19 5.9v12.2a.9.9 0 0 1-1.4.75L9.4 12.75a.9.9 0 0 1 0-1.5l8.2-6.1a.9.9 0 0 1 1.4.75z',
  next: 'M15.5 5H18v14h-2.5zM5 5.9v12.2a.9.9 0 0 0 1.4.75l8.2-6.1a.9.9 0 0 0 0-1.5L6.4 5.15A.9.9 0 0 0 5 5.9z',
  loop: 'M7 7h10.2l-1.6-1.6L17 4l4 4-4 4-1.4-1.4L17.2 9H7a2 2 0 0 0-2 2v1H3v-1a4 4 0 0 1 4-4zM17 17H6.8l1.6 1.6L7 20l-4-4 4-4 1.4 1.4L6.8 15H17a2 2 0 0 0 2-2v-1h2v1a4 4 0 0 1-4 4z',
  volume:
    'M4 9.5h3.5L12 5.5v13l-4.5-4H4zM15 8.6a4.5 4.5 0 0 1 0 6.8l-1.3-1.5a2.5 2.5 0 0 0 0-3.8zM17.4 5.9a8 8 0 0 1 0 12.2l-1.3-1.5a6 6 0 0 0 0-9.2z',
  muted:
    'M4 9.5h3.5L12 5.5v13l-4.5-4H4zM14.6 9.6l1.4-1.4 2.3 2.3 2.3-2.3 1.4 1.4-2.3 2.3 2.3 2.3-1.4 1.4-2.3-2.3-2.3 2.3-1.4-1.4 2.3-2.3z',
  close: 'M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name }: { name: IconName }) {
  return (
    <svg
      className="player-icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
