/**
 * The application menu's own commands, sent to the renderer as `menu.command` events (the
 * renderer's runMenuCommand acts on these names), with their shortcuts. Pure.
 */

export interface MenuCommand {
  command: string;
  label: string;
  accelerator: string;
}

export const FILE_COMMANDS: readonly MenuCommand[] = [
  { command: 'new-song', label: 'New Song', accelerator: 'CmdOrCtrl+N' },
  { command: 'face-swap', label: 'New Face Swap', accelerator: 'CmdOrCtrl+Shift+F' },
  { command: 'image-edit', label: 'New Image Edit', accelerator: 'CmdOrCtrl+Shift+E' },
];

export const GO_COMMANDS: readonly MenuCommand[] = [
  { command: 'compose', label: 'Compose', accelerator: 'CmdOrCtrl+1' },
  { command: 'activity', label: 'Activity', accelerator: 'CmdOrCtrl+2' },
  { command: 'library', label: 'Library', accelerator: 'CmdOrCtrl+3' },
  { command: 'focus-search', label: 'Find in Library', accelerator: 'CmdOrCtrl+F' },
];

export const SETTINGS_COMMAND: MenuCommand = {
  command: 'open-settings',
  label: 'Settings…',
  accelerator: 'CmdOrCtrl+,',
};
