/**
 * The desktop services: dialog, shell, Notification, nativeImage, Menu, net and powerMonitor.
 * Nothing here touches the desktop: calls are recorded, and a dialog answers what the test
 * queued (`queueDialogAnswer`) or cancels. Behaviour kept from Electron:
 * - dialog (lib/browser/api/dialog.ts): the window argument is optional (told apart from the
 *   options by being a window); open and message dialogs throw "dialog module can only be used
 *   after app is ready" before ready; showErrorBox works at any time.
 * - Notification cannot be made before ready ("Cannot create Notification before app is ready").
 * - Menu.buildFromTemplate (lib/browser/api/menu.ts): the template must be an array of items
 *   with a label, a role or the separator type; roles are lower-cased; submenus are built too.
 * - nativeImage.createFromPath gives an empty image for a file that is missing or not an image.
 * - net.isOnline() / net.online; powerMonitor is an EventEmitter.
 */
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { StandInBrowserWindow } from './browser-window.ts';
import { DESCRIBE, isReady, record } from './runtime.ts';

// ---------- dialog ----------

const dialogAnswers = new Map<string, unknown[]>();

/** The answer the next `showOpenDialog`/`showMessageBox`/`showSaveDialog` gives. */
export function queueDialogAnswer(kind: string, answer: unknown): void {
  const queue = dialogAnswers.get(kind) ?? [];
  queue.push(answer);
  dialogAnswers.set(kind, queue);
}

function nextAnswer<T>(kind: string, fallback: T): T {
  const queued = dialogAnswers.get(kind)?.shift();
  return (queued ?? fallback) as T;
}

function checkAppInitialized(): void {
  if (!isReady()) throw new Error('dialog module can only be used after app is ready');
}

function splitArgs(windowOrOptions: unknown, maybeOptions: unknown) {
  const isWindow = windowOrOptions instanceof StandInBrowserWindow;
  return { window: isWindow ? windowOrOptions : null, options: isWindow ? maybeOptions : windowOrOptions };
}

type MessageOptions = { cancelId?: number; buttons?: string[] };

export const dialog = {
  async showOpenDialog(windowOrOptions: unknown, maybeOptions?: unknown) {
    checkAppInitialized();
    const { window, options } = splitArgs(windowOrOptions, maybeOptions);
    record('call', 'dialog.showOpenDialog', { window, options });
    return nextAnswer('showOpenDialog', { canceled: true, filePaths: [] as string[] });
  },
  async showSaveDialog(windowOrOptions: unknown, maybeOptions?: unknown) {
    checkAppInitialized();
    const { window, options } = splitArgs(windowOrOptions, maybeOptions);
    record('call', 'dialog.showSaveDialog', { window, options });
    return nextAnswer('showSaveDialog', { canceled: true, filePath: '' });
  },
  async showMessageBox(windowOrOptions: unknown, maybeOptions?: unknown) {
    checkAppInitialized();
    const { window, options } = splitArgs(windowOrOptions, maybeOptions);
    record('call', 'dialog.showMessageBox', { window, options });
    const cancelId = (options as MessageOptions | undefined)?.cancelId ?? 0;
    return nextAnswer('showMessageBox', { response: cancelId, checkboxChecked: false });
  },
  showErrorBox(title: string, content: string): void {
    record('call', 'dialog.showErrorBox', { title, content });
  },
};

// ---------- shell ----------

export const shell = {
  async openExternal(url: string, options?: unknown): Promise<void> {
    record('call', 'shell.openExternal', { url, options });
  },
  async openPath(path: string): Promise<string> {
    record('call', 'shell.openPath', { path });
    return '';
  },
  showItemInFolder(fullPath: string): void {
    record('call', 'shell.showItemInFolder', { fullPath });
  },
  async trashItem(path: string): Promise<void> {
    record('call', 'shell.trashItem', { path });
  },
  beep(): void {
    record('call', 'shell.beep');
  },
};

// ---------- Notification ----------

export class StandInNotification extends EventEmitter {
  static isSupported(): boolean {
    return true;
  }

  readonly options: Record<string, unknown>;

  constructor(options: Record<string, unknown> = {}) {
    super();
    if (!isReady()) throw new Error('Cannot create Notification before app is ready');
    record('call', 'new Notification', { options });
    this.options = options;
  }

  show(): void {
    record('call', 'Notification.show', { title: this.options.title, body: this.options.body });
  }

  close(): void {
    record('call', 'Notification.close');
  }
}

// ---------- nativeImage ----------

/** The width and height in a PNG's IHDR chunk, or null for anything else. */
function pngSize(path: string): { width: number; height: number } | null {
  try {
    const head = readFileSync(path).subarray(0, 24);
    if (head.toString('latin1', 1, 4) !== 'PNG') return null;
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  } catch {
    return null;
  }
}

export class StandInNativeImage {
  readonly #size: { width: number; height: number };
  readonly source: string;

  static createEmpty(): StandInNativeImage {
    return new StandInNativeImage('empty', { width: 0, height: 0 });
  }

  static createFromPath(path: string): StandInNativeImage {
    record('call', 'nativeImage.createFromPath', { path });
    return new StandInNativeImage(path, pngSize(path) ?? { width: 0, height: 0 });
  }

  constructor(source: string, size: { width: number; height: number }) {
    this.source = source;
    this.#size = size;
  }

  [DESCRIBE](): string {
    return `[NativeImage ${this.#size.width}x${this.#size.height} from ${this.source}]`;
  }

  isEmpty(): boolean {
    return this.#size.width === 0 || this.#size.height === 0;
  }

  getSize(): { width: number; height: number } {
    return { ...this.#size };
  }

  resize(options: { width?: number; height?: number }): StandInNativeImage {
    if (this.isEmpty()) return this;
    const width = options.width ?? Math.round((this.#size.width * (options.height ?? 0)) / this.#size.height);
    const height = options.height ?? Math.round((this.#size.height * width) / this.#size.width);
    return new StandInNativeImage(this.source, { width, height });
  }
}

export const nativeImage = {
  createEmpty: () => StandInNativeImage.createEmpty(),
  createFromPath: (path: string) => StandInNativeImage.createFromPath(path),
};

// ---------- Menu ----------

type Template = Record<string, unknown>;

export class StandInMenuItem {
  readonly label: string;
  readonly role: string | undefined;
  readonly type: string;
  readonly accelerator: string | undefined;
  readonly submenu: StandInMenu | undefined;
  readonly click: ((...args: unknown[]) => void) | undefined;

  constructor(options: Template) {
    this.role = typeof options.role === 'string' ? options.role.toLowerCase() : undefined;
    this.label = typeof options.label === 'string' ? options.label : '';
    this.accelerator = typeof options.accelerator === 'string' ? options.accelerator : undefined;
    this.click =
      typeof options.click === 'function' ? (options.click as (...a: unknown[]) => void) : undefined;
    const sub = options.submenu;
    this.submenu =
      sub instanceof StandInMenu ? sub : Array.isArray(sub) ? StandInMenu.buildFromTemplate(sub) : undefined;
    this.type = typeof options.type === 'string' ? options.type : this.submenu ? 'submenu' : 'normal';
    if (this.type === 'submenu' && !this.submenu) throw new Error('Invalid submenu');
  }

  [DESCRIBE](): unknown {
    return {
      label: this.label || undefined,
      role: this.role,
      type: this.type,
      accelerator: this.accelerator,
      click: this.click ? true : undefined,
      submenu: this.submenu?.[DESCRIBE](),
    };
  }
}

let applicationMenu: StandInMenu | null = null;

export class StandInMenu extends EventEmitter {
  readonly items: StandInMenuItem[] = [];

  static buildFromTemplate(template: unknown): StandInMenu {
    if (!Array.isArray(template)) {
      throw new TypeError('Invalid template for Menu: Menu template must be an array');
    }
    const valid = template.every(
      (item) =>
        item != null &&
        typeof item === 'object' &&
        (Object.hasOwn(item, 'label') || Object.hasOwn(item, 'role') || item.type === 'separator'),
    );
    if (!valid)
      throw new TypeError('Invalid template for MenuItem: must have at least one of label, role or type');
    const menu = new StandInMenu();
    for (const item of template)
      menu.append(item instanceof StandInMenuItem ? item : new StandInMenuItem(item));
    return menu;
  }

  static setApplicationMenu(menu: StandInMenu | null): void {
    record('call', 'Menu.setApplicationMenu', { menu });
    applicationMenu = menu;
  }

  static getApplicationMenu(): StandInMenu | null {
    return applicationMenu;
  }

  append(item: StandInMenuItem): void {
    this.items.push(item);
  }

  [DESCRIBE](): unknown {
    return this.items.map((item) => item[DESCRIBE]());
  }
}

// ---------- net and powerMonitor ----------

let online = true;

/** What the operating system says about the network from now on. */
export function setOnline(value: boolean): void {
  online = value;
}

export const net = {
  isOnline(): boolean {
    record('call', 'net.isOnline', { online });
    return online;
  },
  get online(): boolean {
    return online;
  },
};

class StandInPowerMonitor extends EventEmitter {
  override on(event: string | symbol, listener: (...args: never[]) => void): this {
    record('call', 'powerMonitor.on', { event: String(event) });
    return super.on(event, listener as (...args: unknown[]) => void);
  }

  override off(event: string | symbol, listener: (...args: never[]) => void): this {
    record('call', 'powerMonitor.off', { event: String(event) });
    return super.off(event, listener as (...args: unknown[]) => void);
  }

  isOnBatteryPower(): boolean {
    return false;
  }
}

export const powerMonitor = new StandInPowerMonitor();
