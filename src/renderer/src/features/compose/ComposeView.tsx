/**
 * The composer: one tab per task family (arrow keys, Home and End move between tabs), the active
 * tab's form, its title, the Advanced section and the Queue bar. Ctrl/Cmd+Enter anywhere in it queues.
 */
import '../../styles/compose.css';
import { type DragEvent, type KeyboardEvent, useEffect, useRef } from 'react';
import { useCompose } from '../../state/compose-state.ts';
import { AdvancedSection } from './AdvancedSection.tsx';
import { attemptQueue } from './compose-actions.ts';
import { COMPOSE_TABS, type ComposeTab, TAB_LABELS } from './compose-model.ts';
import { FaceSwapForm } from './FaceSwapForm.tsx';
import { FromResultForm } from './FromResultForm.tsx';
import { openFromFile } from './file-recall.ts';
import { ImageEditForm } from './ImageEditForm.tsx';
import { KindTabForm } from './KindTabForm.tsx';
import { OtherForm } from './OtherForm.tsx';
import { PictureToolsForm } from './PictureToolsForm.tsx';
import { QueueBar } from './QueueBar.tsx';
import { SongForm } from './SongForm.tsx';
import { TitleField } from './TitleField.tsx';

const PANEL_ID = 'compose-panel';
const tabId = (tab: ComposeTab) => `compose-tab-${tab}`;

function TabList() {
  const active = useCompose((s) => s.tab);
  const setTab = useCompose((s) => s.setTab);
  const refs = useRef<Partial<Record<ComposeTab, HTMLButtonElement | null>>>({});
  // in a small window the tabs scroll sideways: the chosen one (a tab opened from elsewhere too) shows
  useEffect(() => {
    refs.current[active]?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [active]);

  const move = (tab: ComposeTab) => {
    setTab(tab);
    refs.current[tab]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = COMPOSE_TABS.indexOf(active);
    const last = COMPOSE_TABS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const tab = COMPOSE_TABS[next];
    if (tab) move(tab);
  };

  return (
    <div className="tabs" role="tablist" aria-label="Task family" onKeyDown={onKeyDown}>
      {COMPOSE_TABS.map((tab) => (
        <button
          key={tab}
          ref={(element) => {
            refs.current[tab] = element;
          }}
          id={tabId(tab)}
          type="button"
          role="tab"
          className="tab"
          aria-selected={tab === active}
          aria-controls={PANEL_ID}
          tabIndex={tab === active ? 0 : -1}
          onClick={() => setTab(tab)}
        >
          {TAB_LABELS[tab]}
        </button>
      ))}
    </div>
  );
}

function ActiveForm({ tab }: { tab: ComposeTab }) {
  switch (tab) {
    case 'song':
      return <SongForm />;
    case 'faceSwap':
      return <FaceSwapForm />;
    case 'imageEdit':
      return <ImageEditForm />;
    case 'fromResult':
      return <FromResultForm />;
    case 'pictures':
      return <PictureToolsForm />;
    case 'image':
    case 'video':
    case 'model3d':
      return <KindTabForm key={tab} tab={tab} />;
    default:
      return <OtherForm />;
  }
}

/** Ctrl+Enter (Cmd+Enter on a Mac) is Queue, from any field of the composer. */
function onComposeKeyDown(event: KeyboardEvent<HTMLDivElement>) {
  if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
  event.preventDefault();
  attemptQueue();
}

/** Files dragged over the composer (not onto a slot, which takes them itself) may be dropped. */
function onComposeDragOver(event: DragEvent<HTMLDivElement>) {
  if (event.defaultPrevented || !event.dataTransfer.types.includes('Files')) return;
  event.preventDefault();
  event.dataTransfer.dropEffect = 'copy';
}

/** A file the app made, dropped outside a slot: its task's form, filled in (file-recall.ts). */
function onComposeDrop(event: DragEvent<HTMLDivElement>) {
  if (event.defaultPrevented) return; // a slot took it
  const file = event.dataTransfer.files[0];
  if (!file) return;
  event.preventDefault();
  void openFromFile(file);
}

export function ComposeView() {
  const tab = useCompose((s) => s.tab);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the Ctrl+Enter shortcut of the Queue button, which is the control to use; a dropped file is the slot's or Browse's too
    <div
      className="view compose-view"
      onKeyDown={onComposeKeyDown}
      onDragOver={onComposeDragOver}
      onDrop={onComposeDrop}
      data-testid="compose-view"
    >
      <header className="view-header">
        <h1>Compose</h1>
        <p className="view-subtitle">
          Queue works offline too: tasks wait here until the service can take them.
        </p>
      </header>
      <TabList />
      <section
        id={PANEL_ID}
        role="tabpanel"
        aria-labelledby={tabId(tab)}
        className="tab-panel"
        data-testid={`compose-${tab}`}
      >
        <ActiveForm tab={tab} />
        <TitleField />
        <AdvancedSection />
        <QueueBar />
      </section>
    </div>
  );
}
