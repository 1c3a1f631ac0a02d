/**
 * The operating system's online/offline signal for the engine: `net.isOnline()` read every few
 * seconds and right after the machine wakes up or unlocks, passed on only when it changes.
 */
import { net, powerMonitor } from 'electron';

export function watchNetwork(onChange: (online: boolean) => void, intervalMs = 5_000): () => void {
  let last: boolean | null = null;
  const check = () => {
    const online = net.isOnline();
    if (online === last) return;
    last = online;
    onChange(online);
  };
  check();
  const timer = setInterval(check, intervalMs);
  const onWake = () => check();
  powerMonitor.on('resume', onWake);
  powerMonitor.on('unlock-screen', onWake);
  return () => {
    clearInterval(timer);
    powerMonitor.off('resume', onWake);
    powerMonitor.off('unlock-screen', onWake);
  };
}
