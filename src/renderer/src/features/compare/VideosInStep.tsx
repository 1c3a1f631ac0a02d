/**
 * Two to four videos side by side, played in step by one control: Play/Pause and one seek range
 * for all of them. The first video leads (its sound is heard, the others are muted); the others
 * follow its time whenever it seeks or they drift more than a frame or two away. Each video has
 * no controls of its own, so there is one way to move them all.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { formatClock } from '../../model/time-format.ts';
import { playOneAtATime } from '../../state/player-state.ts';

/** Drift (seconds) past which a follower is set back to the lead's time. */
const MAX_DRIFT_SECONDS = 0.08;

export interface SteppedVideo {
  id: string;
  title: string;
  url: string;
}

export function VideosInStep({ videos }: { videos: readonly SteppedVideo[] }) {
  const id = useId();
  const refs = useRef<(HTMLVideoElement | null)[]>([]);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);

  useEffect(() => {
    const [lead, ...followers] = refs.current;
    if (!lead) return;
    const others = followers.filter((v): v is HTMLVideoElement => v !== null);
    const align = () => {
      for (const v of others)
        if (Math.abs(v.currentTime - lead.currentTime) > MAX_DRIFT_SECONDS) v.currentTime = lead.currentTime;
      setTime(lead.currentTime);
    };
    const play = () => {
      setPlaying(true);
      align();
      for (const v of others) void v.play().catch(() => undefined);
    };
    const pause = () => {
      setPlaying(false);
      for (const v of others) v.pause();
      align();
    };
    const length = () => setDuration(Number.isFinite(lead.duration) ? lead.duration : 0);
    const leave = playOneAtATime(lead); // the player bar's song pauses while the videos play
    lead.addEventListener('play', play);
    lead.addEventListener('pause', pause);
    lead.addEventListener('seeked', align);
    lead.addEventListener('timeupdate', align);
    lead.addEventListener('loadedmetadata', length);
    length();
    return () => {
      leave();
      lead.removeEventListener('play', play);
      lead.removeEventListener('pause', pause);
      lead.removeEventListener('seeked', align);
      lead.removeEventListener('timeupdate', align);
      lead.removeEventListener('loadedmetadata', length);
    };
  }, []);

  const lead = () => refs.current[0] ?? null;
  const toggle = () => {
    const v = lead();
    if (!v) return;
    if (v.paused) void v.play().catch(() => undefined);
    else v.pause();
  };
  const seek = (seconds: number) => {
    const v = lead();
    if (!v) return;
    v.currentTime = seconds;
    for (const other of refs.current.slice(1)) if (other) other.currentTime = seconds;
    setTime(seconds);
  };

  return (
    <div className="compare-videos" data-testid="compare-videos">
      <div className={`compare-video-grid compare-count-${videos.length}`}>
        {videos.map((v, i) => (
          <figure key={v.id} data-testid="compare-video" data-task-id={v.id}>
            <video
              ref={(el) => {
                refs.current[i] = el;
              }}
              src={v.url}
              muted={i > 0}
              preload="auto"
              playsInline
              aria-label={`${v.title}${i === 0 ? '' : ' (muted)'}`}
            />
            <figcaption>
              {i + 1}. {v.title}
              {i === 0 ? '' : ' (muted)'}
            </figcaption>
          </figure>
        ))}
      </div>
      <div className="compare-video-controls">
        <button type="button" className="button button-primary" onClick={toggle}>
          {playing ? 'Pause all' : 'Play all'}
        </button>
        <input
          id={`${id}-seek`}
          className="compare-seek"
          type="range"
          min={0}
          max={duration || 0}
          step={0.05}
          value={Math.min(time, duration || 0)}
          aria-label="Position of all videos"
          aria-valuetext={`${formatClock(time)} of ${formatClock(duration)}`}
          onChange={(e) => seek(Number(e.target.value))}
        />
        <span className="muted compare-time" aria-hidden="true">
          {formatClock(time)} / {formatClock(duration)}
        </span>
      </div>
    </div>
  );
}
