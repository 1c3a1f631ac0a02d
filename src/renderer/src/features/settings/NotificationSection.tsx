/** Settings › Notifications: what the app says when tasks end, and the optional tone. */
import { useId } from 'react';
import { useStudio } from '../../state/studio-state.ts';
import { playNoticeTone } from '../activity/notice-sound.ts';
import { updateSettings } from './settings-actions.ts';

export function NotificationSection() {
  const id = useId();
  const sound = useStudio((s) => s.settings?.notifySound ?? false);
  return (
    // Named apart from the toast area's "Notifications" region: landmark names are unique.
    <section className="settings-section" aria-label="Notification settings">
      <h2>Notifications</h2>
      <p className="field-hint">
        The app shows a notice when a task is saved or fails, and when the queue is done; while its window is
        in the background, the system shows one too.
      </p>
      <div className="switch-row">
        <input
          id={`${id}-sound`}
          type="checkbox"
          role="switch"
          className="switch"
          checked={sound}
          aria-checked={sound}
          aria-describedby={`${id}-sound-hint`}
          onChange={(event) => {
            const on = event.target.checked;
            // the click lets the page make sound: a sample of the tone, now
            if (on) playNoticeTone('saved');
            void updateSettings({ notifySound: on });
          }}
        />
        <label htmlFor={`${id}-sound`}>Play a sound when a task ends</label>
      </div>
      <p id={`${id}-sound-hint`} className="field-hint">
        A short tone: rising when a task is saved, falling when one fails.
      </p>
    </section>
  );
}
