/**
 * The detail view's player: waveform for audio, before/after for swaps, edits and upscales,
 * video (beside its input video, in step, for an upscale or a face swap onto a video), a 3D
 * model in its orbit viewer, image; an image result opens in the image viewer ("View larger").
 * A task with several outputs (a 3D model, its turntable video, its picture) picks one by kind. A picture too large
 * to decode is never given to an <img> (nor to the viewer): a placeholder names its size and
 * offers its folder.
 */
import { Suspense, useState } from 'react';
import { mediaKind } from '../../../../shared/media/index.ts';
import { BeforeAfterSlider } from '../../components/BeforeAfterSlider.tsx';
import { ImageLightbox } from '../../components/ImageLightbox.tsx';
// three.js is loaded when a 3D result is first opened, not with the window
import { LazyModelViewer as ModelViewer } from '../../components/LazyModelViewer.tsx';
import { VideoCompare } from '../../components/VideoCompare.tsx';
import { WaveformPlayer } from '../../components/WaveformPlayer.tsx';
import { checkerboardClass } from '../../model/picture-look.ts';
import type { LoadedTask } from '../../model/task-status.ts';
import { useStudio } from '../../state/studio-state.ts';
import { revealTask } from './library-actions.ts';
import { beforeImageUrl, beforeVideoUrl, fileUrl, outputName, pictureNotShown } from './task-media.ts';

/** In place of a picture the window does not decode: why, and the way to the file. */
function PictureNotShown({ text, taskId, index }: { text: string; taskId: string; index: number }) {
  return (
    <div className="detail-media-empty detail-not-shown" data-testid="detail-picture-not-shown">
      <p>{text}.</p>
      <button type="button" className="button button-small" onClick={() => void revealTask(taskId, index)}>
        Reveal in folder
      </button>
    </div>
  );
}

/** What the player says when there is no result: why, for a task that ended without one. */
function noResultText(task: LoadedTask): string {
  if (task.state === 'failed') return 'No result: the task failed.';
  if (task.state === 'expired') return 'No result: the task expired.';
  if (task.state === 'cancelled') return 'No result: the task was cancelled.';
  return 'No saved result yet.';
}

/**
 * `parent`: the task it was made from (use-parent-task.ts), whose saved output an input may be;
 * `shown`: the `index` of the output shown (null: the first), `onShow` shows another
 * (use-shown-output.ts: the keep-going section follows it).
 */
export function DetailMedia({
  task,
  parent,
  shown,
  onShow,
}: {
  task: LoadedTask;
  parent: LoadedTask | null;
  shown: number | null;
  onShow(index: number): void;
}) {
  const base = useStudio((s) => s.appInfo?.mediaBaseUrl);
  const [viewing, setViewing] = useState(false);
  const outputs = task.outputs;
  const output = outputs.find((o) => o.index === shown) ?? outputs[0] ?? null;
  const url = output?.state === 'saved' ? fileUrl(output, base) : null;

  if (!output || !url) {
    return (
      <div className="detail-media detail-media-empty">
        <p>
          {output?.state === 'expired'
            ? 'The result expired at the service before it was saved.'
            : output?.error
              ? output.error
              : noResultText(task)}
        </p>
      </div>
    );
  }
  const { show, label } = mediaKind(output.kind);
  const notShown = pictureNotShown(output);
  const before =
    show.compare === 'slider' && !notShown
      ? beforeImageUrl(task, parent, base, window.location.origin)
      : null;
  const picture = show.viewer === 'image' && !notShown;
  const checkered = checkerboardClass(task);
  const beforeVideo =
    show.viewer === 'video' && show.compare === 'players' ? beforeVideoUrl(task, parent, base) : null;
  return (
    <div className="detail-media">
      {notShown ? <PictureNotShown text={notShown} taskId={task.id} index={output.index} /> : null}
      {show.viewer === 'waveform' ? (
        <WaveformPlayer url={url} title={task.title} taskId={task.id} output={output.index} />
      ) : null}
      {show.viewer === 'video' && beforeVideo ? (
        <VideoCompare before={beforeVideo} after={url} title={task.title} />
      ) : null}
      {show.viewer === 'model' ? (
        <Suspense fallback={<p className="model-viewer-note">Loading the 3D viewer…</p>}>
          <ModelViewer url={url} title={task.title} />
        </Suspense>
      ) : null}
      {show.viewer === 'video' && !beforeVideo ? (
        // biome-ignore lint/a11y/useMediaCaption: generated videos have no captions to offer
        <video
          className="detail-video"
          src={url}
          controls
          preload="metadata"
          aria-label={`Video: ${task.title}`}
          data-testid="video-player"
        />
      ) : null}
      {picture && before ? (
        <BeforeAfterSlider before={before} after={url} title={task.title} checkerboard={checkered !== ''} />
      ) : null}
      {picture && !before ? (
        // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the picture is a pointer extra; "View larger" is the keyboard's way
        <img
          className={`detail-image detail-image-zoomable ${checkered}`.trim()}
          src={url}
          alt={`Result: ${task.title}`}
          onClick={() => setViewing(true)}
        />
      ) : null}
      {show.viewer === 'download' ? (
        <p>
          A {label} result: <code>{output.path}</code>
        </p>
      ) : null}
      {picture || outputs.length > 1 ? (
        <div className="detail-media-footer">
          {outputs.length > 1 ? (
            <fieldset className="output-picker">
              <legend className="visually-hidden">Outputs</legend>
              {outputs.map((o) => (
                <button
                  key={o.index}
                  type="button"
                  className="button button-small"
                  aria-pressed={o.index === output.index}
                  onClick={() => onShow(o.index)}
                >
                  {outputName(o, outputs)}
                </button>
              ))}
            </fieldset>
          ) : null}
          {picture ? (
            <button
              type="button"
              className="button button-small detail-view-larger"
              onClick={() => setViewing(true)}
            >
              <span aria-hidden="true">⤢ </span>
              View larger
            </button>
          ) : null}
        </div>
      ) : null}
      {viewing && picture ? (
        <ImageLightbox
          src={url}
          title={task.title}
          before={before}
          checkerboard={checkered !== ''}
          onClose={() => setViewing(false)}
        />
      ) : null}
    </div>
  );
}
