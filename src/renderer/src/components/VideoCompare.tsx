/**
 * A video result beside the video it was made from (an upscale, a face swap's target), playing
 * in step: one Play/Pause for both, and the input follows the result's time whenever the result
 * seeks or drifts more than a frame or two away. The input is muted; each keeps its own controls
 * for a closer look.
 */
import { useEffect, useRef, useState } from 'react';

/** Drift (seconds) past which the input is set back to the result's time. */
const MAX_DRIFT_SECONDS = 0.08;

export function VideoCompare({ before, after, title }: { before: string; after: string; title: string }) {
  const beforeRef = useRef<HTMLVideoElement>(null);
  const afterRef = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);

  useEffect(() => {
    const lead = afterRef.current;
    const follow = beforeRef.current;
    if (!lead || !follow) return;
    const align = () => {
      if (Math.abs(follow.currentTime - lead.currentTime) > MAX_DRIFT_SECONDS) {
        follow.currentTime = lead.currentTime;
      }
    };
    const play = () => {
      setPlaying(true);
      align();
      void follow.play().catch(() => undefined);
    };
    const pause = () => {
      setPlaying(false);
      follow.pause();
      align();
    };
    lead.addEventListener('play', play);
    lead.addEventListener('pause', pause);
    lead.addEventListener('seeked', align);
    lead.addEventListener('timeupdate', align);
    return () => {
      lead.removeEventListener('play', play);
      lead.removeEventListener('pause', pause);
      lead.removeEventListener('seeked', align);
      lead.removeEventListener('timeupdate', align);
    };
  }, []);

  const toggle = () => {
    const lead = afterRef.current;
    if (!lead) return;
    if (lead.paused) void lead.play().catch(() => undefined);
    else lead.pause();
  };

  return (
    <div className="video-compare" data-testid="video-compare">
      <figure>
        <video
          ref={beforeRef}
          src={before}
          muted
          controls
          preload="metadata"
          aria-label={`Before: the input of ${title}`}
          data-testid="video-before"
        />
        <figcaption>Before</figcaption>
      </figure>
      <figure>
        {/* biome-ignore lint/a11y/useMediaCaption: generated videos have no captions to offer */}
        <video
          ref={afterRef}
          src={after}
          controls
          preload="metadata"
          aria-label={`After: ${title}`}
          data-testid="video-player"
        />
        <figcaption>After</figcaption>
      </figure>
      <button type="button" className="button button-small video-compare-toggle" onClick={toggle}>
        {playing ? 'Pause both' : 'Play both'}
      </button>
    </div>
  );
}
