/** The persistent player: its bar (bottom of the window) and the play button of song cards. */
export { PlayerBar } from './PlayerBar.tsx';
export { PlayerFold } from './PlayerFold.tsx';
export { SongPlayButton } from './SongPlayButton.tsx';
