/**
 * The application menu: the usual roles and shortcuts (edit, view, window; the app menu on
 * macOS) plus the app's own commands, which go to the renderer as `menu.command` events.
 */
import { app, Menu, type MenuItemConstructorOptions } from 'electron';
import { FILE_COMMANDS, GO_COMMANDS, type MenuCommand, SETTINGS_COMMAND } from './menu-commands.ts';

export function buildAppMenu(send: (command: string) => void): Menu {
  const item = (c: MenuCommand): MenuItemConstructorOptions => ({
    label: c.label,
    accelerator: c.accelerator,
    click: () => send(c.command),
  });
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac
      ? [
          {
            label: app.name,
            submenu: [
              { role: 'about' },
              { type: 'separator' },
              item(SETTINGS_COMMAND),
              { type: 'separator' },
              { role: 'services' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    {
      label: '&File',
      submenu: [
        ...FILE_COMMANDS.map(item),
        { type: 'separator' },
        ...(isMac ? [] : [item(SETTINGS_COMMAND), { type: 'separator' } as const]),
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: '&Go',
      submenu: GO_COMMANDS.map(item),
    },
    {
      label: '&View',
      submenu: [
        ...(app.isPackaged
          ? []
          : ([{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as const)),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ];
  return Menu.buildFromTemplate(template);
}
