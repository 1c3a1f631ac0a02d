/** Settings › Notifications: what the app says when tasks end, and the optional tone. */
import { SwitchField } from '../../components/SwitchField.tsx';
import { useStudio } from '../../state/studio-state.ts';
import { playNoticeTone } from '../activity/notice-sound.ts';
import { updateSettings } from './settings-actions.ts';

export function NotificationSection() {
  const sound = useStudio((s) => s.settings?.notifySound ?? false);
  return (
    // Named apart from the toast area's "Notifications" region: landmark names are unique.
    <section className="settings-section" aria-label="Notification settings">
      <h2>Notifications</h2>
      <p className="field-hint">
        The app shows a notice when a task is saved or fails, and when the queue is done; while its window is
        in the background, the system shows one too.
      </p>
      <SwitchField
        label="Play a sound when a task ends"
        hint="A short tone: rising when a task is saved, falling when one fails."
        checked={sound}
        onChange={(on) => {
          // the click lets the page make sound: a sample of the tone, now
          if (on) playNoticeTone('saved');
          void updateSettings({ notifySound: on });
        }}
      />
    </section>
  );
}
